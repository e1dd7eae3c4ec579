import type { ServerResponse } from "node:http";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { type ApiContext, type ApiDeps, type ApiRequest, createContextFactory } from "../context";
import { toApiError } from "../errors/to-api-error";
import { appRouter } from "../routers/app.router";

/**
 * The /v1 REST surface: trpc-to-openapi serves the routers; this wrapper fixes what the
 * adapter cannot (see docs/architecture.md): per-procedure success statuses, extra
 * headers, and an error body that is exactly the spec's envelope.
 *
 * The caller (apps/server) has already assigned `req.requestId` and parsed `req.body`.
 */
export function createRestHandler(options: ApiDeps & { onError?: (error: unknown, req: ApiRequest) => void }) {
  const handler = createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: createContextFactory(options),
    responseMeta({ ctx, errors }) {
      const context = ctx as ApiContext | undefined;
      if (errors.length > 0) {
        const mapped = toApiError(errors[0]);
        return { status: mapped.status, headers: mapped.headers };
      }
      return { status: context?.response.status ?? 200, headers: context?.response.headers ?? {} };
    },
    onError({ error, req }) {
      if (toApiError(error).status >= 500) options.onError?.(error.cause ?? error, req as ApiRequest);
    },
  });

  return async (req: ApiRequest, res: ServerResponse): Promise<void> => {
    sendEnvelopeOnError(req, res);
    await handler(req, res);
  };
}

/** Replaces the adapter's error body with the envelope that errorFormatter computed. */
function sendEnvelopeOnError(req: ApiRequest, res: ServerResponse): void {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    if (res.statusCode < 400 || typeof chunk !== "string") return end(chunk);
    let envelope: { error: { code: string; message: string; request_id: string } };
    try {
      envelope = (JSON.parse(chunk) as { envelope?: typeof envelope }).envelope ?? internalError();
    } catch {
      envelope = internalError();
    }
    envelope.error.request_id = req.requestId ?? envelope.error.request_id;
    const body = JSON.stringify(envelope);
    res.setHeader("Content-Length", Buffer.byteLength(body));
    return end(body);
  }) as typeof res.end;
}

function internalError() {
  return { error: { code: "internal_error", message: "internal error", request_id: "" } };
}
