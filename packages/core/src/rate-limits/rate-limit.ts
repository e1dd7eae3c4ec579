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
