import createClient, { type Client as FetchClient } from "openapi-fetch";
import type { ClientSettings } from "../client-options";
import { ApiError } from "../errors/api-error";
import type { paths } from "../generated/openapi";
import { retryingFetch } from "./retrying-fetch";

/** The typed HTTP clients of one SDK client: JSON requests (with a timeout), JSON answers (with a longer one) and streams (without). */
export interface Transport {
  json: FetchClient<paths>;
  answer: FetchClient<paths>;
  stream: FetchClient<paths>;
}

export function createTransport(settings: ClientSettings): Transport {
  const { retry, fetch, onRetry } = settings;
  const base = { baseUrl: settings.baseUrl, headers: { Authorization: `Bearer ${settings.apiKey}` } };
  return {
    json: createClient<paths>({ ...base, fetch: retryingFetch({ retry, fetch, onRetry, timeoutMs: settings.timeoutMs }) }),
    answer: createClient<paths>({ ...base, fetch: retryingFetch({ retry, fetch, onRetry, timeoutMs: settings.answerTimeoutMs }) }),
    stream: createClient<paths>({ ...base, fetch: retryingFetch({ retry, fetch, onRetry, timeoutMs: undefined }) }),
  };
}

/** The body of a successful openapi-fetch result, or the ApiError its response stands for. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as T;
}
