/** An Idempotency-Key record's state: the first request is running, or its response is stored for replay. */
export const IDEMPOTENCY_STATES = ["in_progress", "completed"] as const;
export type IdempotencyState = (typeof IDEMPOTENCY_STATES)[number];
