import { readEnv } from "./env";
import { MgaError } from "./errors/mga-error";
import { retryListener, type Logger, type RetryEvent } from "./http/retry-events";
import { DEFAULT_MAX_STREAM_RESUMES, DEFAULT_RETRY, type RetryOptions, type RetrySettings } from "./http/retry-policy";

export interface ClientOptions {
  /** Your API key (scopes per resource). Defaults to the MGA_API_KEY environment variable. */
  apiKey?: string | undefined;
  /** The API's origin, e.g. `https://api.example.com` (paths start with /v1). Defaults to MGA_BASE_URL. */
  baseUrl?: string | undefined;
  /** Retries after the first attempt (default 2); 0 turns retrying off. */
  maxRetries?: number | undefined;
  /**
   * The longest single wait before a retry (default 10 s): the back-off never waits longer, and a
   * Retry-After beyond it is not waited for: the 429 is thrown at once, with `retryAfterSeconds`.
   */
  maxRetryDelayMs?: number | undefined;
  /** The first back-off (default 500 ms), doubled on each retry, then jittered. */
  initialRetryDelayMs?: number | undefined;
  /**
   * Resumes of a stream whose connection was lost (or that the server asked to resume) in a row
   * without a frame between them, before the stream throws a StreamResumeError (default 5); 0 turns
   * resuming off.
   */
  maxStreamResumes?: number | undefined;
  /** Called before each retry's wait, and each stream's resume: which attempt, how long, why, and the request. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Receives a debug line per retry. Defaults to `console` when MGA_LOG=debug, else nothing is logged. */
  logger?: Logger | undefined;
  /** @deprecated Use maxRetries, initialRetryDelayMs and maxRetryDelayMs; they win over it when both are given. */
  retry?: RetryOptions | undefined;
  /** Per attempt of a JSON request (default 60 s). Streams have none: cancel them with `cancel()`, a signal or `break`. */
  timeoutMs?: number | undefined;
  /** Per attempt of a JSON message call, which waits for the whole answer (default 330 s: the service allows an answer 300 s). */
  answerTimeoutMs?: number | undefined;
  /** A fetch of your own (a proxy agent, a test double); defaults to the global fetch at call time. */
  fetch?: ((input: Request, init?: RequestInit) => Promise<Response>) | undefined;
}

/** The options with the environment's values and the defaults filled in, checked. */
export interface ClientSettings {
  apiKey: string;
  baseUrl: string;
  retry: RetrySettings;
  maxStreamResumes: number;
  onRetry: (event: RetryEvent) => void;
  timeoutMs: number;
  answerTimeoutMs: number;
  fetch: (input: Request, init?: RequestInit) => Promise<Response>;
}

/** Fills in and checks the options; a missing or malformed one is an MgaError that says what to set. */
export function resolveClientOptions(options: ClientOptions = {}): ClientSettings {
  const apiKey = options.apiKey ?? readEnv("MGA_API_KEY");
  if (!apiKey?.trim()) {
    throw new MgaError(
      "apiKey is required: pass it to new Client({ apiKey }) or set the MGA_API_KEY environment variable (create a key in the staff console: the organization's page → Keys → Create key)",
    );
  }
  const baseUrl = options.baseUrl ?? readEnv("MGA_BASE_URL");
  if (!baseUrl)
    throw new MgaError(
      "baseUrl is required: pass it to new Client({ baseUrl }) or set the MGA_BASE_URL environment variable, e.g. https://api.example.com",
    );
  if (!/^https?:\/\//.test(baseUrl))
    throw new MgaError(
      `baseUrl must be the API's http(s) origin, e.g. https://api.example.com (got ${JSON.stringify(baseUrl)})`,
    );

  const retry: RetrySettings = {
    maxRetries: options.maxRetries ?? options.retry?.maxRetries ?? DEFAULT_RETRY.maxRetries,
    initialDelayMs: options.initialRetryDelayMs ?? options.retry?.initialDelayMs ?? DEFAULT_RETRY.initialDelayMs,
    maxDelayMs: options.maxRetryDelayMs ?? options.retry?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
  };
  const maxStreamResumes = options.maxStreamResumes ?? DEFAULT_MAX_STREAM_RESUMES;
  // Retrying is meant to be bounded: no endless loop of attempts, no wait without end.
  for (const [name, value] of [
    ["maxRetries", retry.maxRetries],
    ["maxStreamResumes", maxStreamResumes],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new MgaError(`${name} must be a whole number, 0 or more (got ${value})`);
  }
  for (const [name, value] of [
    ["initialRetryDelayMs", retry.initialDelayMs],
    ["maxRetryDelayMs", retry.maxDelayMs],
  ] as const) {
    if (!Number.isFinite(value) || value < 0)
      throw new MgaError(`${name} must be a number of milliseconds, 0 or more (got ${value})`);
  }

  const logger = options.logger ?? (readEnv("MGA_LOG") === "debug" ? console : undefined);
  return {
    apiKey,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    retry,
    maxStreamResumes,
    onRetry: retryListener({ maxRetries: retry.maxRetries, maxStreamResumes }, options.onRetry, logger),
    timeoutMs: options.timeoutMs ?? 60_000,
    answerTimeoutMs: options.answerTimeoutMs ?? 330_000,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}
