import { randomUUID } from "node:crypto";

/** Per-call options of the POSTs that accept an Idempotency-Key (spec section 8). */
export interface IdempotentCallOptions {
  /**
   * The key to send. Defaults to a new UUID v4 for this call, reused by its retries. Pass your
   * own (persisted before sending) to make a retry after a crash of your process safe too.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export function idempotencyHeader(options: IdempotentCallOptions | undefined): { "Idempotency-Key": string } {
  return { "Idempotency-Key": options?.idempotencyKey ?? randomUUID() };
}
