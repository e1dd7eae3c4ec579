import { MgaError, nameErrorClass } from "./mga-error";

/** The request an error is about. */
export interface RequestTarget {
  method: string;
  url: string;
}

/**
 * No answer came: the connection was refused, reset or lost, or (ApiTimeoutError) the answer did
 * not arrive in time. The request may or may not have reached the API. `cause` is the error
 * `fetch` threw.
 */
export class ApiConnectionError extends MgaError {
  static {
    nameErrorClass(this, "ApiConnectionError");
  }
  readonly method: string;
  readonly url: string;

  constructor(init: RequestTarget & { cause?: unknown; message?: string }) {
    super(
      init.message ?? `Could not reach the API (${init.method} ${init.url}): ${describeCause(init.cause)}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.method = init.method;
    this.url = init.url;
  }
}

/** The API did not answer (headers and, for a JSON call, the whole body) within the attempt's timeout. */
export class ApiTimeoutError extends ApiConnectionError {
  static {
    nameErrorClass(this, "ApiTimeoutError");
  }
  readonly timeoutMs: number;

  constructor(init: RequestTarget & { timeoutMs: number; cause?: unknown }) {
    super({ ...init, message: `The API did not answer ${init.method} ${init.url} within ${init.timeoutMs} ms` });
    this.timeoutMs = init.timeoutMs;
  }
}

/**
 * The most telling message of a fetch failure: undici's own is "fetch failed", the reason
 * (`connect ECONNREFUSED 127.0.0.1:443`, `other side closed`) is further down its causes.
 */
function describeCause(cause: unknown): string {
  if (cause === undefined) return "the connection failed";
  let deepest = cause;
  while (deepest instanceof Error && deepest.cause instanceof Error) deepest = deepest.cause;
  if (!(deepest instanceof Error)) return String(deepest);
  return deepest.message || (deepest as { code?: string }).code || deepest.name;
}
