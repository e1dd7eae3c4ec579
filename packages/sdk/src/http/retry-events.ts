import type { ApiConnectionError } from "../errors/connection-errors";

/** A retry about to happen (or a stream's resume), as `onRetry` and the debug log are told before its wait. */
export interface RetryEvent {
  /** Which retry this is: 1 for the first, up to maxRetries (up to maxStreamResumes for a resume). */
  attempt: number;
  /** How long the SDK waits before sending it: the Retry-After the API named, or the jittered back-off. */
  delayMs: number;
  /** Why: the status the API answered (429, 409, 502, 503), or the connection error (ApiConnectionError, ApiTimeoutError). */
  reason: number | ApiConnectionError;
  method: string;
  url: string;
  /** Set when a stream is resumed (GET /v1/conversations/{id}/stream): the id of the last frame it received, which it resumes after. */
  lastEventId?: string;
}

/** Where the SDK writes its debug lines: `console`, or any logger with a `debug(message)` method (pino, winston…). */
export interface Logger {
  debug(message: string): void;
}

/**
 * The one listener the retrying fetch calls: the caller's `onRetry` and a debug line. One
 * formatted string per line, so that loggers whose extra arguments mean something else (pino's
 * are interpolation values) print it whole.
 */
export function retryListener(
  limits: { maxRetries: number; maxStreamResumes: number },
  onRetry: ((event: RetryEvent) => void) | undefined,
  logger: Logger | undefined,
): (event: RetryEvent) => void {
  return (event) => {
    const reason =
      typeof event.reason === "number" ? String(event.reason) : `${event.reason.name}: ${event.reason.message}`;
    const what =
      event.lastEventId === undefined
        ? `retry ${event.attempt}/${limits.maxRetries}`
        : `resume ${event.attempt}/${limits.maxStreamResumes} (after event ${event.lastEventId})`;
    logger?.debug(`[mga] ${what} of ${event.method} ${event.url} in ${event.delayMs} ms after ${reason}`);
    onRetry?.(event);
  };
}
