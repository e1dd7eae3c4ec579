import type { ErrorCode } from "@mga/core/errors";

/** The one table from domain error codes to HTTP statuses (spec section 7). */
export const HTTP_STATUS_OF: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  idempotency_conflict: 409,
  identity_conflict: 409,
  team_not_found: 404,
  team_archived: 409,
  team_in_use: 409,
  rate_limited: 429,
  internal_error: 500,
  upstream_error: 502,
};
