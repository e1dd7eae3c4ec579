import type { ServerResponse } from "node:http";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";

import { createContextFactory, type ApiContext, type ApiDeps, type ApiRequest } from "../context";
import { toApiError, type ApiErrorResponse } from "../errors/to-api-error";
import { noteErrorCode } from "../pipeline/request-record";
import { appRouter } from "../routers/app.router";
import { errorBody } from "./write-error";

/**
 * The /v1 REST surface: trpc-to-openapi serves the routers; this wrapper fixes what the
 * adapter cannot (see docs/architecture.md): per-procedure success statuses, extra
 * headers, and an error body that is exactly the spec's envelope.
 *
 * The caller (apps/server) has already assigned `req.requestId` and parsed `req.body`.
 */
export function createRestHandler(options: ApiDeps & { onError?: (error: unknown, req: ApiRequest) => void }) {
  // Each failure is mapped once, in onError (the adapter calls it first), and found again by
  // its error (responseMeta) and by its request (the body), instead of re-parsing the body the
  // adapter wrote.
  const failures = new WeakMap<object, ApiErrorResponse>();
  const handler = createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: createContextFactory(options),
    responseMeta({ ctx, errors }) {
      const context = ctx as ApiContext | undefined;
      const [error] = errors;
      if (error) {
        const mapped = failures.get(error) ?? toApiError(error);
        return { status: mapped.status, headers: mapped.headers };
      }
      return { status: context?.response.status ?? 200, headers: context?.response.headers ?? {} };
    },
    onError({ error, req }) {
      const mapped = toApiError(error);
      failures.set(error, mapped);
      failures.set(req, mapped);
      noteErrorCode(req, mapped.code);
      if (mapped.status >= 500) options.onError?.(error.cause ?? error, req as ApiRequest);
    },
  });

  return async (req: ApiRequest, res: ServerResponse): Promise<void> => {
    sendEnvelopeOnError(req, res, failures);
    // No body at all is an empty object (a POST that takes none, like …/cancel, needs no
    // Content-Type; a route that needs fields says which are missing), not the adapter's 415.
    if (
      req.body === undefined &&
      (req.method === "POST" || req.method === "PUT" || req.method === "PATCH") &&
      req.headers["content-type"] === undefined
    ) {
      req.body = {};
      req.headers["content-type"] = "application/json";
    }
    await handler(req, res);
  };
}

/** Replaces the adapter's error body with the spec's envelope of the failure onError mapped. */
function sendEnvelopeOnError(req: ApiRequest, res: ServerResponse, failures: WeakMap<object, ApiErrorResponse>): void {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    if (res.statusCode < 400 || typeof chunk !== "string") return end(chunk);
    const body = errorBody(failures.get(req) ?? toApiError(undefined), req.requestId ?? "");
    res.setHeader("Content-Length", Buffer.byteLength(body));
    return end(body);
  }) as typeof res.end;
}
