// @mga/core/rate-limits: what the rest of the service may use of this area; everything else is internal.
export { enforceRateLimit } from "./rate-limit";
export { takeRateLimitToken } from "./take-rate-limit-token";
export type { RateLimitState } from "./rate-limit";
