import type { BenchEnvironment } from "./environment";

/** CPU seconds used since the meter started: the server's, and the embedded PostgreSQL's (undefined at DATABASE_URL). */
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
export function startCpuMeter(env: BenchEnvironment): () => CpuSpent {
  const server = env.api.cpuSeconds();
  const database = env.databaseCpuSeconds();
  return () => {
    const databaseNow = env.databaseCpuSeconds();
    return {
      server: env.api.cpuSeconds() - server,
      database: database === undefined || databaseNow === undefined ? undefined : databaseNow - database,
    };
  };
}
