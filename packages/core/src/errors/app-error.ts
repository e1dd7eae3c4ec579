/**
 * The error codes of spec section 7. Domain functions throw AppError with one of these;
 * the transport (packages/api) maps each code to its HTTP status in one place.
 */
export const ERROR_CODES = [
  "invalid_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "rate_limited",
  "idempotency_conflict",
  "identity_conflict",
  "team_not_found",
  "team_archived",
  "team_in_use",
  "upstream_error",
  "internal_error",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra response headers the transport must send (Retry-After, …). */
  readonly headers: Record<string, string>;
  /**
   * A status other than the code's usual one, for the few statuses the spec gives no code
   * of their own (413 too large, 410 gone): they keep the nearest spec code.
   */
  readonly status: number | undefined;
  /**
   * The input the refusal is about ("email", "alias"), for a form that shows the message
   * beside that input (the staff console). Not part of the REST error envelope.
   */
  readonly field: string | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; status?: number; cause?: unknown; field?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.headers = options.headers ?? {};
    this.status = options.status;
    this.field = options.field;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
