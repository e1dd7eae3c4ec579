import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client";
import type { ServerSecrets } from "../secrets/server-secrets";

/**
 * What every domain function is handed: one pool per process, shared by Prisma (for ordinary
 * reads and writes) and by the raw queries of the hot path (key check), which skip Prisma's
 * per-query overhead; and the keys derived from SECRET_KEY, for the values the database
 * keeps or hands out that must not be forged or read (signed cursors, sealed replays).
 */
/** What a domain function queries through: the pool outside a transaction, one connection inside one. */
export type Sql = Pick<pg.Pool, "query">;

export interface Database {
  /** The one way domain code runs SQL (issue 13 replaces `prisma` and `pool` with it). */
  sql: Sql;
  prisma: PrismaClient;
  pool: pg.Pool;
  /**
   * Connections that only hold advisory locks (db/advisory-locks.ts): a lock holder's own
   * queries run on `pool`, so they never wait behind the connections of those waiting for it.
   */
  lockPool: pg.Pool;
  secrets: ServerSecrets;
  close(): Promise<void>;
}

export function openDatabase(url: string, options: { secrets: ServerSecrets; maxConnections?: number }): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  // An idle client that loses its connection emits "error"; without a listener it crashes the process.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  // Only lock holders hold these connections (waiters retry without one, advisory-locks.ts);
  // a holder that hangs still cannot make anyone wait for a connection forever.
  const lockPool = new pg.Pool({ connectionString: url, max: Math.max(2, Math.ceil((options.maxConnections ?? 10) / 2)), connectionTimeoutMillis: 30_000 });
  lockPool.on("error", () => {});
  return {
    sql: pool,
    prisma,
    pool,
    lockPool,
    secrets: options.secrets,
    async close() {
      await prisma.$disconnect();
      await Promise.all([pool.end(), lockPool.end()]);
    },
  };
}
