// @mga/core/rate-limits: what the rest of the service may use of this area; everything else is internal.
export { DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE, MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE } from "./chat-answer-limit";
export { enforceRateLimit } from "./rate-limit";
export { takeRateLimitToken } from "./take-rate-limit-token";
export type { RateLimitPolicy, RateLimitState } from "./rate-limit";
export { SLICE_DIVISOR } from "./slice-policy";
