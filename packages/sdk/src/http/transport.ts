import createClient, { type Client as FetchClient } from "openapi-fetch";

import type { ClientSettings } from "../client-options";
import { ApiError } from "../errors/api-error";
import type { paths } from "../generated/openapi";
import type { RetryEvent } from "./retry-events";
import type { RetrySettings } from "./retry-policy";
import { retryingFetch } from "./retrying-fetch";

/**
 * The typed HTTP clients of one SDK client: JSON requests (with a timeout), JSON answers (with a
 * longer one), streams (without), and a stream's own resumes, sent once each: the stream counts
 * and spaces its resumes itself (`resumes`), retries inside each would multiply them.
 */
export interface Transport {
  baseUrl: string;
  json: FetchClient<paths>;
  answer: FetchClient<paths>;
  stream: FetchClient<paths>;
  resume: FetchClient<paths>;
  resumes: ResumeSettings;
}

/** How a stream resumes after its connection is lost: how many times in a row, with which back-off, told to whom. */
export interface ResumeSettings {
  maxResumes: number;
  retry: RetrySettings;
  onResume: (event: RetryEvent) => void;
}

export function createTransport(settings: ClientSettings): Transport {
  const { retry, fetch, onRetry } = settings;
  const base = { baseUrl: settings.baseUrl, headers: { Authorization: `Bearer ${settings.apiKey}` } };
  return {
    baseUrl: settings.baseUrl,
    json: createClient<paths>({
      ...base,
      fetch: retryingFetch({ retry, fetch, onRetry, timeoutMs: settings.timeoutMs }),
    }),
    answer: createClient<paths>({
      ...base,
      fetch: retryingFetch({ retry, fetch, onRetry, timeoutMs: settings.answerTimeoutMs }),
    }),
    stream: createClient<paths>({ ...base, fetch: retryingFetch({ retry, fetch, onRetry, timeoutMs: undefined }) }),
    resume: createClient<paths>({
      ...base,
      fetch: retryingFetch({ retry: { ...retry, maxRetries: 0 }, fetch, onRetry, timeoutMs: undefined }),
    }),
    resumes: { maxResumes: settings.maxStreamResumes, retry, onResume: onRetry },
  };
}

/** The body of a successful openapi-fetch result, or the ApiError its response stands for. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as T;
}

/** A streamed response's body and the URL it came from, or the ApiError its refusal stands for. */
export async function unwrapStream(
  call: Promise<{ data?: ReadableStream<Uint8Array> | null; error?: unknown; response: Response }>,
): Promise<{ body: ReadableStream<Uint8Array>; url: string }> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.fromResponse(response, error);
  if (!data)
    throw new ApiError({
      status: 502,
      code: "upstream_error",
      message: "The API answered a stream without a body",
      requestId: response.headers.get("x-request-id") ?? undefined,
    });
  return { body: data, url: response.url };
}
