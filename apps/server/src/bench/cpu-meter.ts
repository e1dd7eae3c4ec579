import type { ChildServer } from "./child-server";
import type { BenchEnvironment } from "./environment";

/**
 * CPU seconds used since the meter started: the server's, and the embedded PostgreSQL's
 * (undefined at DATABASE_URL, and for a server other than the service: the bare proxy has none).
 */
export interface CpuSpent {
  server: number;
  database: number | undefined;
}

/**
 * Starts measuring what the server and the database spend (their whole process trees): read it
 * after the work and its off-path writes (usage, the request log, frames) have been flushed.
 * Divided by the work's count, a cost that the machine's other load moves far less than a rate
 * or a latency, so two builds compare on it.
 */
export function startCpuMeter(env: BenchEnvironment, measured: ChildServer = env.api): () => CpuSpent {
  const databaseCpuSeconds = () => (measured === env.api ? env.databaseCpuSeconds() : undefined);
  const server = measured.cpuSeconds();
  const database = databaseCpuSeconds();
  return () => {
    const databaseNow = databaseCpuSeconds();
    return {
      server: measured.cpuSeconds() - server,
      database: database === undefined || databaseNow === undefined ? undefined : databaseNow - database,
    };
  };
}
