import type { ApiErrorResponse } from "./to-api-error";

/**
 * A database constraint that refused a write because of another request at the same moment
 * (two people adding the same alias, a key created while its organization is deleted, a row
 * renamed as it is removed). The domain checks these cases first; when a concurrent request
 * slips between its check and its write, the constraint is the last word. That is a conflict
 * with the current state, answered 409 (or 404) in the envelope, never a server fault.
 * Codes: PostgreSQL's SQLSTATEs as `pg` reports them (all runtime access is SQL through pg).
 */
const CONFLICTS: Record<string, Pick<ApiErrorResponse, "status" | "code" | "message">> = {
  "23505": {
    status: 409,
    code: "invalid_request",
    message: "this name or identifier was just taken by another request; choose another or try again",
  },
  "23503": {
    status: 409,
    code: "invalid_request",
    message: "something this refers to was changed or removed at the same moment; reload and try again",
  },
  "40001": { status: 409, code: "invalid_request", message: "another change was made at the same moment; try again" },
  "40P01": { status: 409, code: "invalid_request", message: "another change was made at the same moment; try again" },
};

export function databaseConflict(cause: unknown): ApiErrorResponse | undefined {
  const code =
    typeof cause === "object" && cause !== null && "code" in cause ? (cause as { code: unknown }).code : undefined;
  const conflict = typeof code === "string" ? CONFLICTS[code] : undefined;
  return conflict ? { ...conflict, headers: {} } : undefined;
}
