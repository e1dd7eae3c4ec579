import { connect } from "@mga/core/db";

import type { Env } from "../env";
import { createLogger } from "../log";
import { startBanner } from "../start-banner";
import { serveClusterMetrics } from "./cluster-metrics";
import { connectionBudgetProblem } from "./connection-budget";
import { relayKeyChanges } from "./key-change-relay";
import { superviseWorkers } from "./worker-supervisor";

/**
 * WORKERS > 1: this process serves nothing itself. It applies the migrations and, without
 * DATABASE_URL, starts the embedded PostgreSQL, once, before forking (the workers find that
 * cluster through DATA_DIR, as the CLI does, and its secret key there too); then it keeps
 * WORKERS workers running (docs/architecture.md, "Every core"). SIGTERM or SIGINT drains them
 * all; only when the last one has exited does the embedded PostgreSQL stop.
 */
export async function runPrimary(env: Env): Promise<void> {
  const logger = createLogger(env.LOG_LEVEL, undefined, { worker: "primary", pid: process.pid });
  const connection = await connect({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    secretKey: env.SECRET_KEY,
    // One query of its own (max_connections), then none: the pool's one connection closes when idle.
    maxConnections: 1,
    // The cluster is stopped here, after the workers' drain.
    handlesSignals: true,
  });
  const { rows } = await connection.db.sql.query<{ max_connections: string }>("SHOW max_connections");
  const problem = connectionBudgetProblem({
    workers: env.WORKERS,
    dbPoolMax: env.DB_POOL_MAX,
    maxConnections: Number(rows[0]?.max_connections),
  });
  if (problem) {
    await connection.close();
    throw new Error(problem);
  }
  serveClusterMetrics();
  relayKeyChanges();
  const workers = superviseWorkers({ count: env.WORKERS, logger });

  let stopping = false;
  const stop = async (reason: string, failed: boolean) => {
    if (stopping) return;
    stopping = true;
    logger.info("stopping", { signal: reason, workers: env.WORKERS });
    // Past each worker's own bound (its drain, then the longest answer), a worker is stuck.
    const clean = await workers.stop(env.SHUTDOWN_DRAIN_MS + env.UPSTREAM_TOTAL_TIMEOUT_MS + 30_000);
    await connection.close();
    logger.info("stopped", {});
    process.exit(clean && !failed ? 0 : 1);
  };
  process.on("SIGINT", () => void stop("SIGINT", false));
  process.on("SIGTERM", () => void stop("SIGTERM", false));

  let baseUrl: string;
  try {
    baseUrl = await workers.listening;
  } catch (error) {
    logger.error("failed to start", { error: error instanceof Error ? error.message : String(error) });
    return stop("start failed", true);
  }
  logger.info("workers listening", { workers: env.WORKERS, base_url: baseUrl });
  if (process.stdout.isTTY || env.MGA_PRINT_BANNER !== "0") process.stderr.write(startBanner(baseUrl));
}
