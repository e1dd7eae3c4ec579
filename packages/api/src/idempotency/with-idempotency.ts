import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
} from "@mga/core/idempotency";
import { type AuthenticatedKey } from "@mga/core/keys";

import type { ApiContext } from "../context";
import { idempotencyKeyOf } from "./idempotency-rules";

export const REPLAY_HEADER = "Idempotent-Replayed";

/**
 * Runs a POST under its Idempotency-Key (when one was sent): claims the key, runs the
 * work, stores the response for replay; a failure releases the key. A replay answers the
 * stored status and body (with the original request_id) and sets Idempotent-Replayed.
 */
export async function withIdempotency<T>(
  ctx: ApiContext & { key: AuthenticatedKey },
  options: { route: string; input: unknown; status: number; stream?: boolean | undefined; required?: boolean },
  run: () => Promise<T>,
): Promise<T> {
  const idempotencyKey = idempotencyKeyOf(ctx.idempotencyKey, options);
  if (idempotencyKey === undefined) {
    ctx.response.status = options.status;
    return run();
  }
  const identity = { apiKeyId: ctx.key.id, key: idempotencyKey };
  const claim = await claimIdempotencyKey(ctx.db, {
    ...identity,
    fingerprint: requestFingerprint(options.route, options.input),
  });
  if (claim.kind === "replay") {
    ctx.response.status = claim.status;
    ctx.response.headers[REPLAY_HEADER] = "true";
    return claim.body as T;
  }
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await releaseIdempotencyKey(ctx.db, identity).catch(() => {});
    throw error;
  }
  await completeIdempotencyKey(ctx.db, { ...identity, status: options.status, body: result });
  ctx.response.status = options.status;
  return result;
}
