import createClient, { type Client as FetchClient } from "openapi-fetch";
import { ApiError } from "../errors/api-error";
import type { paths } from "../generated/openapi";
import { DEFAULT_RETRY, type RetryOptions } from "./retry-policy";
import { retryingFetch } from "./retrying-fetch";

export interface TransportOptions {
  apiKey: string;
  /** The API's origin, e.g. `https://api.example.com` (paths start with /v1). */
  baseUrl: string;
  retry?: RetryOptions | undefined;
  /** Per attempt of a JSON request (default 60 s). Streams have none: cancel them with a signal or `break`. */
  timeoutMs?: number | undefined;
  /** Per attempt of a JSON message call, which waits for the whole answer (default 330 s: the service allows an answer 300 s). */
  answerTimeoutMs?: number | undefined;
  /** A fetch of your own (a proxy agent, a test double); defaults to the global fetch at call time. */
  fetch?: ((input: Request, init?: RequestInit) => Promise<Response>) | undefined;
}

/** The typed HTTP clients of one SDK client: JSON requests (with a timeout), JSON answers (with a longer one) and streams (without). */
export interface Transport {
  json: FetchClient<paths>;
  answer: FetchClient<paths>;
  stream: FetchClient<paths>;
}

export function createTransport(options: TransportOptions): Transport {
  if (!options.apiKey) throw new TypeError("apiKey is required: create a key in the console (Organization → API keys)");
  if (!/^https?:\/\//.test(options.baseUrl)) throw new TypeError("baseUrl must be the API's http(s) origin, e.g. https://api.example.com");
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const fetch = options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
  const base = { baseUrl: options.baseUrl.replace(/\/+$/, ""), headers: { Authorization: `Bearer ${options.apiKey}` } };
  return {
    json: createClient<paths>({ ...base, fetch: retryingFetch({ retry, fetch, timeoutMs: options.timeoutMs ?? 60_000 }) }),
    answer: createClient<paths>({ ...base, fetch: retryingFetch({ retry, fetch, timeoutMs: options.answerTimeoutMs ?? 330_000 }) }),
    stream: createClient<paths>({ ...base, fetch: retryingFetch({ retry, fetch, timeoutMs: undefined }) }),
  };
}

/** The body of a successful openapi-fetch result, or the ApiError its response stands for. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as T;
}
