import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";

/** Requests per minute for a key created without --rate-limit. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** The state of a key's current window, as counted in PostgreSQL (shared by all instances). */
export interface RateLimitState {
  limit: number;
  /** Requests counted in this window, this one included. */
  count: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** Headers per the IETF RateLimit draft, plus the widespread X-RateLimit-* trio. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const remaining = Math.max(0, state.limit - state.count);
  return {
    "RateLimit-Policy": `"per-key";q=${state.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    RateLimit: `"per-key";r=${remaining};t=${state.resetSeconds}`,
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(state.resetSeconds),
  };
}

export function enforceRateLimit(state: RateLimitState): Record<string, string> {
  const headers = rateLimitHeaders(state);
  if (state.count > state.limit) {
    throw new AppError("rate_limited", `rate limit of ${state.limit} requests per minute exceeded; retry in ${state.resetSeconds}s`, {
      headers: { ...headers, "Retry-After": String(state.resetSeconds) },
    });
  }
  return headers;
}

/**
 * Counts one request of a key that is not an API call of its own (an answer in the hosted
 * chat, launched with the key) in the same window as its API requests.
 */
export async function countKeyRequest(db: Database, key: { id: string; rateLimitPerMinute: number | null }): Promise<RateLimitState> {
  const { rows } = await db.sql.query<{ count: number; reset_seconds: number }>(
    `INSERT INTO rate_limit_counters (api_key_id, window_start, count) VALUES ($1, date_trunc('minute', now()), 1)
     ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
     RETURNING count, ceil(extract(epoch FROM (window_start + make_interval(secs => $2) - now())))::int AS reset_seconds`,
    [key.id, RATE_LIMIT_WINDOW_SECONDS],
  );
  const row = rows[0] ?? { count: 1, reset_seconds: RATE_LIMIT_WINDOW_SECONDS };
  return { limit: key.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE, count: row.count, resetSeconds: Math.max(1, row.reset_seconds) };
}
