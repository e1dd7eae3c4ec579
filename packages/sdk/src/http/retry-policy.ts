/**
 * The retry settings as the first release took them, `retry: { … }`.
 * @deprecated Pass `maxRetries`, `initialRetryDelayMs` and `maxRetryDelayMs` to the Client instead.
 */
export interface RetryOptions {
  maxRetries?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** How many times and how long the SDK retries a request (docs/decisions.md, "SDK"). */
export interface RetrySettings {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  /** First back-off, doubled on each retry before jitter. */
  initialDelayMs: number;
  /** Longest single wait: the back-off's ceiling, and the longest Retry-After waited for instead of failing. */
  maxDelayMs: number;
}

/**
 * Two retries, as OpenAI's client. No single wait over 10 s: a longer Retry-After is the
 * caller's to decide on (it gets the 429 at once), rather than a call that hangs in silence.
 */
export const DEFAULT_RETRY: RetrySettings = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 10_000 };

/**
 * Five resumes in a row without a frame wait at most 15.5 s in all with the default back-off
 * (500 ms doubled, jittered): time for a load balancer to stop sending to an instance that left,
 * not so long that an outage goes unreported. A resume that brings a frame starts the count again,
 * so a rolling deploy that moves a stream several times does not use it up.
 */
export const DEFAULT_MAX_STREAM_RESUMES = 5;

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
  if (response.status === 409 && request.headers.has("Idempotency-Key") && response.headers.has("Retry-After"))
    return true;
  return isTransientStatus(response.status) && isSafeToRepeat(request);
}

/** Whether a status means "nothing was done, try again later" (a 429 aside, which has its own rules). */
export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUSES.includes(status);
}

/** Full-jitter exponential back-off: a random wait up to initialDelay × 2^retry, capped. */
export function backoffDelayMs(retry: number, options: RetrySettings, random: () => number = Math.random): number {
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
