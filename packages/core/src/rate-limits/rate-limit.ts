import { AppError } from "../errors/app-error";
import { NO_OBSERVER, type Observer } from "../observe/observer";

/** Requests per minute for a key created without --rate-limit. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** Whose budget a state counts: a key's requests, or one partner user's hosted-chat answers (named so in the RateLimit headers). */
export type RateLimitPolicy = "per-key" | "per-user";

/** The state of a key's (or a partner user's) current window, as best known to this instance (leases are shared by all instances). */
export interface RateLimitState {
  limit: number;
  /** Requests counted in this window, this one included (over the limit: refused). */
  count: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** The window's length, when not RATE_LIMIT_WINDOW_SECONDS (tests shorten it). */
  windowSeconds?: number;
  /** When not "per-key". */
  policy?: RateLimitPolicy;
}

/** Headers per the IETF RateLimit draft, plus the widespread X-RateLimit-* trio. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const remaining = Math.max(0, state.limit - state.count);
  const policy = state.policy ?? "per-key";
  return {
    "RateLimit-Policy": `"${policy}";q=${state.limit};w=${state.windowSeconds ?? RATE_LIMIT_WINDOW_SECONDS}`,
    RateLimit: `"${policy}";r=${remaining};t=${state.resetSeconds}`,
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(state.resetSeconds),
  };
}

const overKeyLimit = (state: RateLimitState) =>
  `rate limit of ${state.limit} requests per minute exceeded; retry in ${state.resetSeconds}s`;

/**
 * The headers of an admitted state; a refused one throws 429 `rate_limited` with Retry-After, its
 * message from `refusal`, and is reported to `observer` (the host's refusal counter).
 */
export function enforceRateLimit(
  state: RateLimitState,
  refusal: (state: RateLimitState) => string = overKeyLimit,
  observer: Pick<Observer, "rateLimitRefused"> = NO_OBSERVER,
): Record<string, string> {
  const headers = rateLimitHeaders(state);
  if (state.count > state.limit) {
    observer.rateLimitRefused(state.policy ?? "per-key");
    throw new AppError("rate_limited", refusal(state), {
      headers: { ...headers, "Retry-After": String(state.resetSeconds) },
    });
  }
  return headers;
}
