import { pendingMigrations, type Database } from "@mga/core/db";
import type { JobQueue } from "@mga/core/jobs";

export type CheckResult = "ok" | "draining" | "unreachable" | "pending" | "unknown" | "stopped";

export interface ReadinessReport {
  ready: boolean;
  checks: { draining: "no" | "yes"; database: CheckResult; migrations: CheckResult; job_queue: CheckResult };
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
}

/** How long the database may take to answer `SELECT 1` before it counts as unreachable. */
const DATABASE_TIMEOUT_MS = 2_000;

/**
 * What GET /readyz answers (docs/decisions.md, "Health checks"): ready when the instance is not
 * draining, the database answers, every migration this build ships is applied, and the job queue
 * runs. A load balancer takes an instance out while any of these fails and back when it passes.
 */
export function createReadiness(deps: { db: Database; queue: JobQueue; isDraining: () => boolean }): Readiness {
  // Applied migrations are not taken back: once all are in, they are not read again.
  let migrationsApplied = false;
  return {
    async check() {
      const draining = deps.isDraining();
      const database = await reachable(deps.db);
      let migrations: CheckResult = "unknown";
      if (migrationsApplied) migrations = "ok";
      else if (database === "ok") {
        migrations = await pendingMigrations(deps.db).then(
          (pending) => (pending.length === 0 ? "ok" : "pending"),
          () => "unknown" as const,
        );
        migrationsApplied = migrations === "ok";
      }
      const jobQueue: CheckResult = deps.queue.isRunning ? "ok" : "stopped";
      return {
        ready: !draining && database === "ok" && migrations === "ok" && jobQueue === "ok",
        checks: { draining: draining ? "yes" : "no", database, migrations, job_queue: jobQueue },
      };
    },
  };
}

async function reachable(db: Database): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  // A pool whose connections all hang (a network cut) would otherwise hold the check forever.
  const timeout = new Promise<CheckResult>(
    (resolve) => (timer = setTimeout(() => resolve("unreachable"), DATABASE_TIMEOUT_MS)),
  );
  const query = db.sql.query("SELECT 1").then(
    () => "ok" as const,
    () => "unreachable" as const,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
