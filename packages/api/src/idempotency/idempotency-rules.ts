import { AppError } from "@mga/core/errors";
import { parseIdempotencyKey } from "@mga/core/idempotency";

/**
 * Which requests may or must carry Idempotency-Key (spec 8), in one place for every route and
 * transport. A streamed answer cannot be replayed, so a streaming request may not carry the
 * header at all; a JSON request's header is parsed, and demanded where the route requires it.
 */
export const IDEMPOTENCY_KEY_WITH_STREAM = "Idempotency-Key is not supported with stream: true; send one or the other";

/** Refuses a streaming request that carries the header, whatever its value (checked before the body). */
export function refuseIdempotencyKeyWithStream(idempotencyKey: string | undefined): void {
  if (idempotencyKey !== undefined) throw new AppError("invalid_request", IDEMPOTENCY_KEY_WITH_STREAM);
}

/** The key a JSON request runs under, or undefined without one (after its body was validated). */
export function idempotencyKeyOf(
  header: string | undefined,
  route: { stream?: boolean | undefined; required?: boolean | undefined },
): string | undefined {
  const idempotencyKey = parseIdempotencyKey(header);
  if (route.stream) refuseIdempotencyKeyWithStream(idempotencyKey);
  if (idempotencyKey === undefined && route.required) {
    throw new AppError(
      "invalid_request",
      "Idempotency-Key: this operation requires the header (a UUID or an operation-and-record key, generated and stored before sending)",
    );
  }
  return idempotencyKey;
}
