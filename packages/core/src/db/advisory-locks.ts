import type { Database } from "./database";

/**
 * Runs `work` while holding PostgreSQL advisory locks on `keys`, so that the same work on the
 * same thing is serialized across every instance sharing the database. `work` may take more
 * locks as it learns what it touches (`lock(key)`); all are released when it ends, and by
 * PostgreSQL itself if the process dies. Session locks, not a transaction: `work` may wait on
 * other systems (a site-account service) without keeping a transaction open.
 *
 * Lock order, to rule out deadlocks: take the keys of a kind in one fixed order (callers
 * document theirs).
 */
export async function withAdvisoryLocks<T>(db: Database, keys: string[], work: (lock: (key: string) => Promise<void>) => Promise<T>): Promise<T> {
  const client = await db.lockPool.connect();
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
    const lock = async (key: string) => {
      await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]);
    };
    for (const key of keys) await lock(key);
    return await work(lock);
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
