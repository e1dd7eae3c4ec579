import type { Database } from "../db/database";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, RATE_LIMIT_WINDOW_SECONDS, type RateLimitState } from "./rate-limit";

/**
 * Counts one request of a key in its current window, shared by all instances in PostgreSQL
 * (one upsert of the key's counter row). `limitPerMinute` null is the service default.
 */
export async function takeRateLimitToken(db: Database, input: { keyId: string; limitPerMinute: number | null }): Promise<RateLimitState> {
  const { rows } = await db.sql.query<{ count: number; reset_seconds: number }>(
    `INSERT INTO rate_limit_counters (api_key_id, window_start, count) VALUES ($1, date_trunc('minute', now()), 1)
     ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
     RETURNING count, ceil(extract(epoch FROM (window_start + make_interval(secs => $2) - now())))::int AS reset_seconds`,
    [input.keyId, RATE_LIMIT_WINDOW_SECONDS],
  );
  const row = rows[0] ?? { count: 1, reset_seconds: RATE_LIMIT_WINDOW_SECONDS };
  return { limit: input.limitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE, count: row.count, resetSeconds: Math.max(1, row.reset_seconds) };
}
