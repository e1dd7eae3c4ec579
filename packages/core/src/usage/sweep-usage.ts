import type { Database } from "../db/database";
import { MIN_USAGE_RETENTION_DAYS } from "./usage-values";

/** Rows one statement deletes at most: a sweep never holds long locks on a busy log. */
const SWEEP_BATCH = 10_000;

/**
 * Deletes request-log rows older than `requestLogDays` and usage rows older than `usageDays`
 * (never fewer than MIN_USAGE_RETENTION_DAYS), in batches. Run by any instance's periodic sweep;
 * two instances sweeping at once only share the work.
 */
export async function sweepUsage(
  db: Database,
  retention: { requestLogDays: number; usageDays: number },
): Promise<{ requestLog: number; usage: number }> {
  const usageDays = Math.max(MIN_USAGE_RETENTION_DAYS, retention.usageDays);
  let requestLog = 0;
  for (;;) {
    const deleted = await db.sql.query(
      `DELETE FROM request_log WHERE request_id IN (SELECT request_id FROM request_log WHERE at < now() - make_interval(days => $1) LIMIT $2)`,
      [retention.requestLogDays, SWEEP_BATCH],
    );
    requestLog += deleted.rowCount ?? 0;
    if ((deleted.rowCount ?? 0) < SWEEP_BATCH) break;
  }
  let usage = 0;
  for (const table of ["usage_daily", "integration_usage_daily", "integration_active_users"]) {
    const deleted = await db.sql.query(`DELETE FROM ${table} WHERE day < (now() AT TIME ZONE 'UTC')::date - $1::int`, [
      usageDays,
    ]);
    usage += deleted.rowCount ?? 0;
  }
  return { requestLog, usage };
}
