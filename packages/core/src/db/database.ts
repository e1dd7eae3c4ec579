import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client";

/**
 * One pool per process, shared by Prisma (for ordinary reads and writes) and by the raw
 * queries of the hot path (key check), which skip Prisma's per-query overhead.
 */
export interface Database {
  prisma: PrismaClient;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function openDatabase(url: string, options: { maxConnections?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  // An idle client that loses its connection emits "error"; without a listener it crashes the process.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
