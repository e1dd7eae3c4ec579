/** How many times and how long the SDK retries a request (docs/decisions.md, "SDK"). */
export interface RetryOptions {
  /** Retries after the first attempt (default 2; 0 turns retrying off). */
  maxRetries?: number;
  /** First back-off, doubled on each retry before jitter (default 500 ms). */
  initialDelayMs?: number;
  /** Longest back-off, and the longest Retry-After the SDK waits for instead of failing (default 30 s). */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 30_000 };

/** Statuses that mean "nothing was done, try again later": the gateway or the service was not ready. */
const TRANSIENT_STATUSES: readonly number[] = [502, 503];
/** Methods that are safe to repeat by HTTP's definition (RFC 9110 9.2.2). */
const IDEMPOTENT_METHODS: readonly string[] = ["GET", "HEAD", "PUT", "DELETE"];

/**
 * Whether a request may be sent again. A request that could have been carried out once already
 * (a POST without an Idempotency-Key, a streamed answer) is repeated only after a 429, which the
 * service answers before doing anything.
 */
export function isSafeToRepeat(request: Request): boolean {
  return IDEMPOTENT_METHODS.includes(request.method) || request.headers.has("Idempotency-Key");
}

export function shouldRetry(request: Request, response: Response): boolean {
  if (response.status === 429) return true;
  // The same Idempotency-Key while its first request is still running: 409 with Retry-After (spec 8).
  // Waiting for it is the point of the key; a new key instead could do the work twice.
  if (response.status === 409 && request.headers.has("Idempotency-Key") && response.headers.has("Retry-After")) return true;
  return TRANSIENT_STATUSES.includes(response.status) && isSafeToRepeat(request);
}

/** Full-jitter exponential back-off: a random wait up to initialDelay × 2^retry, capped. */
export function backoffDelayMs(retry: number, options: Required<RetryOptions>, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** retry);
  return Math.round(random() * ceiling);
}

/** Retry-After in milliseconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(response: Response, now: number = Date.now()): number | undefined {
  const value = response.headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
