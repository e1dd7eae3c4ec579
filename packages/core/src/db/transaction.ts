import type pg from "pg";
import type { Database, Sql } from "./database";

/** The pool each opened database takes a transaction's connection from (kept out of `Database`). */
const pools = new WeakMap<Database, pg.Pool>();
/** The wrapper of each opened database's SQL, applied to its transactions' connections too. */
const wrappers = new WeakMap<Database, (sql: Sql) => Sql>();
/** The `Database` values handed to `withTransaction`'s work. */
const transactions = new WeakSet<Database>();
/** Each transaction's handle: the `Database` it was opened on. */
const origins = new WeakMap<Database, Database>();
/** What each open transaction runs once it has committed. */
const commitActions = new WeakMap<Database, Array<() => void>>();

/** The handle a transaction was opened on (the handle itself outside one): where per-instance state such as caches hangs. */
export function databaseOf(db: Database): Database {
  return origins.get(db) ?? db;
}

/**
 * Runs `action` once what `db` has written is committed: after its transaction's COMMIT (never,
 * if it rolls back), or at once outside a transaction. For in-process effects of a change
 * (dropping this instance's cached copy) that must neither precede the commit nor wait for a
 * notification to come back.
 */
export function onCommit(db: Database, action: () => void): void {
  const actions = commitActions.get(db);
  if (actions) actions.push(action);
  else action();
}

/** Called once by openDatabase. */
export function registerPool(db: Database, pool: pg.Pool, wrapSql?: (sql: Sql) => Sql): Database {
  pools.set(db, pool);
  if (wrapSql) wrappers.set(db, wrapSql);
  return db;
}

/** Connections of the pool `db` was opened with (the host's pool-use metric); undefined for a handle openDatabase did not make. */
export function poolUse(db: Database): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = pools.get(databaseOf(db));
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}

/**
 * Runs `work` in one transaction on one pooled connection: COMMIT on success, ROLLBACK on any
 * error. `tx` is a `Database` whose `sql` is that connection, so every domain function (audit,
 * outbox, domain writes) called with `tx` joins the transaction. Called with a `tx`, it runs
 * `work` inside that same transaction (no nested BEGIN: the outer one commits or rolls back all).
 */
export async function withTransaction<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  if (transactions.has(db)) return work(db);
  const pool = pools.get(db);
  if (!pool) throw new Error("withTransaction needs a Database made by openDatabase");
  const client = await pool.connect();
  const wrap = wrappers.get(db);
  const tx: Database = {
    ...db,
    sql: wrap ? wrap(client) : client,
    async close() {
      throw new Error("a transaction ends with its withTransaction call");
    },
  };
  transactions.add(tx);
  origins.set(tx, db);
  const afterCommit: Array<() => void> = [];
  commitActions.set(tx, afterCommit);
  // A connection whose ROLLBACK failed is in an unknown state: it is destroyed, not reused.
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(tx);
    await client.query("COMMIT");
    commitActions.delete(tx);
    for (const action of afterCommit) action();
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
