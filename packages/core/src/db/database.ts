import pg from "pg";

import type { ServerSecrets } from "../secrets/server-secrets";
import { newInstanceState, type InstanceState } from "./instance-state";

/** What a domain function queries through: the pool outside a transaction, one connection inside one. */
export type Sql = Pick<pg.Pool, "query">;

/**
 * What every domain function is handed: where its SQL goes, and the keys derived from
 * SECRET_KEY, for the values the database keeps or hands out that must not be forged or read
 * (signed cursors, sealed replays). All runtime access is SQL through `pg` (docs/architecture.md,
 * "Database access"); inside `withTransaction` the same type carries the transaction's connection.
 */
export interface Database {
  /** The one way domain code runs SQL. */
  sql: Sql;
  /**
   * Connections that only hold advisory locks (db/advisory-locks.ts): a lock holder's own
   * queries run on `sql`, so they never wait behind the connections of those waiting for it.
   */
  lockPool: pg.Pool;
  secrets: ServerSecrets;
  /** This process's caches, buffers and limiters for the database (instance-state.ts); a transaction's handle shares its opener's. */
  instance: InstanceState;
  /** Set on the handle withTransaction gives its work, and only there (transaction.ts). */
  transaction?: TransactionState;
  close(): Promise<void>;
}

/** What a transaction's handle knows of itself. */
export interface TransactionState {
  /** The handle the transaction was opened on. */
  origin: Database;
  /** What runs once the transaction has committed (onCommit); withTransaction returns once what they return has settled. */
  afterCommit: Array<() => void | Promise<void>>;
  /** After a commit, onCommit runs its action at once; after a rollback, never. */
  state: "open" | "committed" | "rolled back";
}

export interface OpenDatabaseOptions {
  secrets: ServerSecrets;
  maxConnections?: number;
  /** Wraps the SQL of the pool and of each transaction's connection (the host's query spans; observe/observer.ts). */
  wrapSql?: ((sql: Sql) => Sql) | undefined;
}

export function openDatabase(url: string, options: OpenDatabaseOptions): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  // An idle client that loses its connection emits "error"; without a listener it crashes the process.
  pool.on("error", () => {});
  // Only lock holders hold these connections (waiters retry without one, advisory-locks.ts);
  // a holder that hangs still cannot make anyone wait for a connection forever.
  const lockPool = new pg.Pool({
    connectionString: url,
    max: Math.max(2, Math.ceil((options.maxConnections ?? 10) / 2)),
    connectionTimeoutMillis: 30_000,
  });
  lockPool.on("error", () => {});
  return {
    sql: options.wrapSql ? options.wrapSql(pool) : pool,
    lockPool,
    secrets: options.secrets,
    instance: newInstanceState(pool, options.wrapSql),
    async close() {
      await Promise.all([pool.end(), lockPool.end()]);
    },
  };
}
