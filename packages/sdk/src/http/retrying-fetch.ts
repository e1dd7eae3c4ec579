import { setTimeout as sleep } from "node:timers/promises";

import { ApiConnectionError, ApiTimeoutError } from "../errors/connection-errors";
import type { RetryEvent } from "./retry-events";
import { backoffDelayMs, isSafeToRepeat, retryAfterMs, shouldRetry, type RetrySettings } from "./retry-policy";

export interface RetryingFetchOptions {
  retry: RetrySettings;
  /**
   * Per attempt, covering the headers and the whole body, which is read within the attempt (so a
   * failure midway is a connection error like any other). Undefined for streams: no timeout, and
   * a successful stream's body is handed over unread.
   */
  timeoutMs: number | undefined;
  fetch: (input: Request, init?: RequestInit) => Promise<Response>;
  onRetry: (event: RetryEvent) => void;
}

/**
 * openapi-fetch's `fetch`: sends the request, and sends the same request again (same headers, so
 * the same Idempotency-Key) while the retry policy allows, waiting Retry-After or a jittered back-off.
 * The caller's abort signal stops the waiting too. The last answer is returned; a failure to get
 * one is thrown as ApiConnectionError (ApiTimeoutError when the timeout cut it), the caller's own
 * abort as it is.
 */
export function retryingFetch(options: RetryingFetchOptions) {
  return async (request: Request): Promise<Response> => {
    const target = { method: request.method, url: request.url };
    const waitBeforeRetry = async (retry: number, delayMs: number, reason: RetryEvent["reason"]) => {
      options.onRetry({ attempt: retry + 1, delayMs, reason, ...target });
      await sleep(delayMs, undefined, { signal: request.signal });
    };
    for (let retry = 0; ; retry++) {
      const canRetry = retry < options.retry.maxRetries;
      const { timeoutMs } = options;
      const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await options.fetch(request.clone(), {
          signal: timeout ? AbortSignal.any([request.signal, timeout]) : request.signal,
        });
        // A JSON answer, and any refusal (a small envelope), is read within the attempt; a stream's frames are not.
        if (timeoutMs !== undefined || !response.ok) response = await readWhole(response);
      } catch (error) {
        // The caller's own cancellation is final, and theirs to recognize: it is not a connection error.
        if (request.signal.aborted) throw error;
        const failure =
          timeout?.aborted && timeoutMs !== undefined
            ? new ApiTimeoutError({ ...target, timeoutMs, cause: error })
            : new ApiConnectionError({ ...target, cause: error });
        if (!canRetry || !isSafeToRepeat(request)) throw failure;
        await waitBeforeRetry(retry, backoffDelayMs(retry, options.retry), failure);
        continue;
      }
      if (!canRetry || !shouldRetry(request, response)) return response;
      const asked = retryAfterMs(response);
      // A wait longer than the SDK is configured to sit through is the caller's decision: hand back the 429.
      if (asked !== undefined && asked > options.retry.maxDelayMs) return response;
      await response.body?.cancel();
      await waitBeforeRetry(retry, asked ?? backoffDelayMs(retry, options.retry), response.status);
    }
  };
}

/** Statuses whose response has no body, which `new Response` refuses one for. */
const NULL_BODY_STATUSES: readonly number[] = [204, 205, 304];

/** The response with its body read into memory, so that a failure while it arrives happens inside the attempt. */
async function readWhole(response: Response): Promise<Response> {
  const body = await response.arrayBuffer();
  return new Response(NULL_BODY_STATUSES.includes(response.status) ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
