import type { ErrorCode } from "../types";
import { MgaError, nameErrorClass } from "./mga-error";

/** The code the SDK falls back on when a response is not the API's error envelope (a proxy's 502 page, say). */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  429: "rate_limited",
  500: "internal_error",
  502: "upstream_error",
  503: "upstream_error",
  504: "upstream_error",
};

/**
 * Every refusal of the API, whether an error response or the terminal `error` frame of a stream:
 * the HTTP status, the envelope's `code` and `message`, and the `request_id` to quote to support.
 */
export class ApiError extends MgaError {
  static {
    nameErrorClass(this, "ApiError");
  }
  readonly status: number;
  readonly code: ErrorCode;
  readonly requestId: string | undefined;
  /** Seconds the API asked to wait (Retry-After), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    status: number;
    code: ErrorCode;
    message: string;
    requestId?: string | undefined;
    retryAfterSeconds?: number | undefined;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.restateStack();
  }

  /** `ApiError [404 not_found]: No such conversation (request_id req_…)`, the form of Node's coded errors. */
  override toString(): string {
    const notes = [
      this.requestId && `request_id ${this.requestId}`,
      this.retryAfterSeconds !== undefined && `retry after ${this.retryAfterSeconds} s`,
    ].filter(Boolean);
    return `${this.name} [${this.status} ${this.code}]: ${this.message}${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`;
  }

  /** The error a non-2xx response stands for; `body` is its parsed JSON (or text) as openapi-fetch read it. */
  static fromResponse(response: Response, body: unknown): ApiError {
    const envelope = isEnvelope(body) ? body.error : undefined;
    const retryAfter = Number(response.headers.get("retry-after"));
    return new ApiError({
      status: response.status,
      code:
        envelope?.code ??
        CODE_OF_STATUS[response.status] ??
        (response.status >= 500 ? "internal_error" : "invalid_request"),
      message: envelope?.message ?? `The API answered ${response.status} ${response.statusText}`.trim(),
      requestId: envelope?.request_id ?? response.headers.get("x-request-id") ?? undefined,
      retryAfterSeconds:
        Number.isFinite(retryAfter) && retryAfter >= 0 && response.headers.has("retry-after") ? retryAfter : undefined,
    });
  }
}

function isEnvelope(body: unknown): body is { error: { code: ErrorCode; message: string; request_id: string } } {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string" &&
    typeof (error as { message?: unknown }).message === "string"
  );
}
