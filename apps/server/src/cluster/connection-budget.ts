/**
 * The most PostgreSQL connections one server process opens (packages/core): its query pool
 * (DB_POOL_MAX), its advisory-lock pool (half of that, at least 2), pg-boss's pool (4) and three
 * LISTEN connections (the key cache's, the answer streams' and pg-boss's). Each worker is a whole
 * process, so WORKERS multiplies all of them.
 */
export function connectionsPerWorker(dbPoolMax: number): number {
  return dbPoolMax + Math.max(2, Math.ceil(dbPoolMax / 2)) + 4 + 3;
}

/** Left for the primary's own connection, the operator CLI and a psql session. */
const HEADROOM = 10;

/**
 * Refuses a WORKERS × DB_POOL_MAX that the database cannot serve at peak (the embedded one
 * allows 200 connections): at start, with the numbers, rather than "too many clients" under load.
 */
export function connectionBudgetProblem(options: {
  workers: number;
  dbPoolMax: number;
  maxConnections: number;
}): string | undefined {
  const needed = options.workers * connectionsPerWorker(options.dbPoolMax) + HEADROOM;
  if (needed <= options.maxConnections) return undefined;
  const fitting = Math.floor((options.maxConnections - HEADROOM) / connectionsPerWorker(options.dbPoolMax));
  return (
    `WORKERS=${options.workers} with DB_POOL_MAX=${options.dbPoolMax} needs up to ${needed} PostgreSQL connections and the database allows ${options.maxConnections} (max_connections): ` +
    `lower WORKERS (at most ${fitting} fit) or DB_POOL_MAX, or raise max_connections`
  );
}
