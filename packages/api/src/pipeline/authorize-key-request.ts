import { authenticateApiKey, requireScope, type AuthenticatedKey, type Scope } from "@mga/core/keys";
import { enforceRateLimit, takeRateLimitToken } from "@mga/core/rate-limits";

import type { ApiContext, RequestRecord } from "../context";

/**
 * The one gate of key-authenticated work, whatever the transport (the tRPC middleware of every
 * /v1 procedure and the streamed answers): the key (401), counted against its rate limit
 * (from this instance's leased tokens; 429 with Retry-After), then the scope (403). The rate-limit headers are
 * recorded on `ctx.response` before the scope is checked: the request was counted either way,
 * and each transport decides which of its answers carry them.
 */
export async function authorizeKeyRequest(
  ctx: Pick<ApiContext, "db" | "presentedKey" | "response" | "observer"> & { record?: RequestRecord },
  scope: Scope | undefined,
): Promise<AuthenticatedKey> {
  const key = await authenticateApiKey(ctx.db, ctx.presentedKey);
  // Usage and the request log count the request against its key from here on (a 429 or 403 too).
  if (ctx.record) {
    ctx.record.keyId = key.id;
    ctx.record.organizationId = key.organizationId;
  }
  const rateLimit = await takeRateLimitToken(ctx.db, { keyId: key.id, limitPerMinute: key.rateLimitPerMinute });
  Object.assign(ctx.response.headers, enforceRateLimit(rateLimit, undefined, ctx.observer));
  if (scope) requireScope(key, scope);
  return key;
}
