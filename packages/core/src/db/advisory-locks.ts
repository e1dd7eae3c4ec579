import type pg from "pg";

import { AppError } from "../errors/app-error";
import type { Database } from "./database";

/**
 * Runs `work` while holding PostgreSQL advisory locks on `keys`, so that the same work on the
 * same thing is serialized across every instance sharing the database. `work` may take more
 * locks as it learns what it touches (`lock(key)`); all are released when it ends, and by
 * PostgreSQL itself if the process dies. Session locks, not a transaction: `work` may wait on
 * other systems (a site-account service) without keeping a transaction open.
 *
 * Waiting holds no connection: a lock is tried (`pg_try_advisory_lock`), and while another
 * holder has it the waiter sleeps and tries again, for at most LOCK_WAIT_MS. Only holders hold
 * connections of the lock pool, so waiters on one busy key never starve work on other keys.
 * A lock taken later by `work` itself is waited for on the held connection (keeping what it
 * holds), within the same deadline.
 *
 * Lock order, to rule out deadlocks: take the keys of a kind in one fixed order (callers
 * document theirs).
 */
export const LOCK_WAIT_MS = 30_000;

/** For work on many things at once: the keys free now are taken in one statement, and the busy ones returned (not waited for). */
export type TryLocks = (keys: string[]) => Promise<Set<string>>;

export async function withAdvisoryLocks<T>(
  db: Database,
  keys: string[],
  work: (lock: (key: string) => Promise<void>, tryLocks: TryLocks) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  const client = await acquire(db, keys, deadline);
  let released = false;
  const release = (destroy: boolean) => {
    if (released) return;
    released = true;
    client.off("error", dropped);
    client.release(destroy);
  };
  // The connection dropped (a database restart): its locks are gone with it, so it goes back
  // to the pool now, destroyed; without a listener the error would crash the process.
  function dropped() {
    release(true);
  }
  client.on("error", dropped);
  try {
    return await work(
      async (key) => {
        while (!(await tryLock(client, key))) await pause(deadline);
      },
      async (wanted) => {
        const unique = [...new Set(wanted)];
        if (unique.length === 0) return new Set();
        // Trying never waits, so taking many keys in any order cannot deadlock.
        const { rows } = await client.query<{ key: string; locked: boolean }>(
          "SELECT k AS key, pg_try_advisory_lock(hashtextextended(k, 0)) AS locked FROM unnest($1::text[]) AS k",
          [unique],
        );
        return new Set(rows.filter((row) => !row.locked).map((row) => row.key));
      },
    );
  } finally {
    if (!released) {
      const clean = await client.query("SELECT pg_advisory_unlock_all()").then(
        () => true,
        () => false,
      );
      // A connection whose locks could not be released is closed, which releases them.
      release(!clean);
    }
  }
}

/** A lock-pool connection holding every key, or a 503-like refusal once the deadline passes. */
async function acquire(db: Database, keys: string[], deadline: number): Promise<pg.PoolClient> {
  for (;;) {
    const client = await db.lockPool.connect();
    let held = 0;
    try {
      while (held < keys.length && (await tryLock(client, keys[held] as string))) held += 1;
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (held === keys.length) return client;
    // Someone else holds one: give back what we took and the connection, then try again.
    await client.query("SELECT pg_advisory_unlock_all()").then(
      () => client.release(),
      () => client.release(true),
    );
    await pause(deadline);
  }
}

async function tryLock(client: pg.PoolClient, key: string): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>(
    "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked",
    [key],
  );
  return rows[0]?.locked === true;
}

async function pause(deadline: number): Promise<void> {
  if (Date.now() > deadline)
    throw new AppError("upstream_error", "another change to the same account is taking too long; retry shortly");
  await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
}
