import { setTimeout as sleep } from "node:timers/promises";
import { backoffDelayMs, isSafeToRepeat, type RetryOptions, retryAfterMs, shouldRetry } from "./retry-policy";

export interface RetryingFetchOptions {
  retry: Required<RetryOptions>;
  /** Per attempt, until the response's headers arrive (and, for JSON, its body is read by the caller); none for streams. */
  timeoutMs: number | undefined;
  fetch: (input: Request, init?: RequestInit) => Promise<Response>;
}

/**
 * openapi-fetch's `fetch`: sends the request, and sends the same request again (same headers, so
 * the same Idempotency-Key) while the retry policy allows, waiting Retry-After or a jittered back-off.
 * The caller's abort signal stops the waiting too. The last answer is returned, or the last
 * network error thrown.
 */
export function retryingFetch(options: RetryingFetchOptions) {
  return async (request: Request): Promise<Response> => {
    for (let retry = 0; ; retry++) {
      const canRetry = retry < options.retry.maxRetries;
      const signal = options.timeoutMs === undefined ? request.signal : AbortSignal.any([request.signal, AbortSignal.timeout(options.timeoutMs)]);
      let response: Response;
      try {
        response = await options.fetch(request.clone(), { signal });
      } catch (error) {
        // The caller's own cancellation is final; a timeout or a lost connection is a network error.
        if (request.signal.aborted || !canRetry || !isSafeToRepeat(request)) throw error;
        await sleep(backoffDelayMs(retry, options.retry), undefined, { signal: request.signal });
        continue;
      }
      if (!canRetry || !shouldRetry(request, response)) return response;
      const asked = retryAfterMs(response);
      // A wait longer than the SDK is configured to sit through is the caller's decision: hand back the 429.
      if (asked !== undefined && asked > options.retry.maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(asked ?? backoffDelayMs(retry, options.retry), undefined, { signal: request.signal });
    }
  };
}
