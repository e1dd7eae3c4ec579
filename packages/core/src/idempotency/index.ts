// @mga/core/idempotency: what the rest of the service may use of this area; everything else is internal.
export {
  claimIdempotencyKey,
  IDEMPOTENCY_KEY_PATTERN,
  completeIdempotencyKey,
  parseIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
  sweepExpiredRecords,
} from "./idempotency-store";
