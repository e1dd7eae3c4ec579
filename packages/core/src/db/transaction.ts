import type { Database, TransactionState } from "./database";

/** The handle a transaction was opened on (the handle itself outside one). */
export function databaseOf(db: Database): Database {
  return db.transaction?.origin ?? db;
}

/**
 * Runs `action` once what `db` has written is committed: after its transaction's COMMIT (never,
 * if it rolls back), or at once outside a transaction. For in-process effects of a change
 * (dropping this instance's cached copy) that must neither precede the commit nor wait for a
 * notification to come back. An action may return a promise (telling this host's sibling
 * processes): withTransaction returns only once it has settled, so the change's caller (a
 * request) is answered after it; it must not reject, the change being committed already.
 */
export function onCommit(db: Database, action: () => void | Promise<void>): void {
  const transaction = db.transaction;
  if (transaction?.state === "open") transaction.afterCommit.push(action);
  else if (transaction?.state !== "rolled back") void action();
}

/** Connections of the pool `db` was opened with (the host's pool-use metric); undefined for a handle openDatabase did not make. */
export function poolUse(db: Database): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = db.instance.pool;
  return (
    pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }
  );
}

/**
 * Runs `work` in one transaction on one pooled connection: COMMIT on success, ROLLBACK on any
 * error. `tx` is a `Database` whose `sql` is that connection, so every domain function (audit,
 * outbox, domain writes) called with `tx` joins the transaction. Called with a `tx`, it runs
 * `work` inside that same transaction (no nested BEGIN: the outer one commits or rolls back all).
 */
export async function withTransaction<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  if (db.transaction) return work(db);
  const { pool, wrapSql } = db.instance;
  if (!pool) throw new Error("withTransaction needs a Database made by openDatabase");
  const client = await pool.connect();
  const transaction: TransactionState = { origin: db, afterCommit: [], state: "open" };
  const tx: Database = {
    ...db,
    sql: wrapSql ? wrapSql(client) : client,
    transaction,
    async close() {
      throw new Error("a transaction ends with its withTransaction call");
    },
  };
  // A connection whose ROLLBACK failed is in an unknown state: it is destroyed, not reused.
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(tx);
    await client.query("COMMIT");
    transaction.state = "committed";
    await Promise.allSettled(transaction.afterCommit.map((action) => action()));
    return result;
  } catch (error) {
    if (transaction.state === "open") transaction.state = "rolled back";
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
