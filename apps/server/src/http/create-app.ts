import type { IncomingMessage, ServerResponse } from "node:http";
import { type ApiDeps, type ApiRequest, appRouter, buildOpenApiDocument, createContextFactory, createRestHandler, toApiError, writeErrorResponse } from "@mga/api";
import { AppError, isAppError, newId } from "@mga/core";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import type { Logger } from "../log";
import { readJsonBody } from "./read-json-body";
import { handleEmbedRoute } from "./embed/embed-routes";
import { handleSiteRoute } from "./site/site-routes";
import { matchStreamRoute, streamMessage } from "./stream-message";

export interface AppOptions extends ApiDeps {
  logger: Logger;
  /** The site login the hosted chat's popup opens; default the built-in /site/login. */
  siteLoginUrl?: string | undefined;
  /** Secret a real site uses to report completed logins. */
  siteCallbackSecret?: string | undefined;
  /** Origin written into the OpenAPI document's `servers`. */
  publicBaseUrl: string;
  /** Silence after which an event stream gets a keep-alive comment. */
  sseKeepAliveMs?: number;
}

/**
 * The HTTP front of the service: request ids and access logs for every request, then
 *   GET /v1/openapi.json   the generated OpenAPI document
 *   POST …messages + stream the SSE answers (stream-message.ts)
 *   /v1/*                  the REST surface (trpc-to-openapi over the routers)
 *   /trpc/*                typed tRPC for the admin console
 *   /embed/…               the hosted chat: page and browser routes (embed/)
 *   /site/…                the built-in site login and password setup (site/)
 *   GET /healthz           liveness
 */
export function createApp(options: AppOptions) {
  const { db, logger, upstream } = options;
  const rest = createRestHandler({
    ...options,
    onError: (error, req) => logger.error("request failed", { request_id: req.requestId, error: describe(error) }),
  });
  let openApiJson: string | undefined;
  const createContext = createContextFactory(options);

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const request = req as ApiRequest;
    const requestId = newId("req");
    request.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    // Aborted when the client disconnects before the response is finished: upstream work stops.
    const clientGone = new AbortController();
    request.clientGone = clientGone.signal;
    res.on("close", () => {
      if (!res.writableFinished) clientGone.abort();
    });
    res.on("finish", () => {
      logger.info("request", {
        request_id: requestId,
        method: req.method,
        path: (req.url ?? "").split("?")[0],
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });

    try {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      if (path === "/v1/openapi.json" && req.method === "GET") {
        openApiJson ??= JSON.stringify(buildOpenApiDocument(options.publicBaseUrl));
        res.setHeader("Content-Type", "application/json");
        res.end(openApiJson);
        return;
      }
      if (path === "/healthz") {
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify({ status: "ok", request_id: requestId }));
        return;
      }
      if (path.startsWith("/trpc/")) {
        await nodeHTTPRequestHandler({
          req,
          res,
          router: appRouter,
          path: path.slice("/trpc/".length),
          createContext: ({ req: incoming }) => createContext({ req: incoming }),
          // The console's cookie, and the statuses of domain errors (401, 403, …) rather than 500.
          responseMeta: ({ ctx, errors }) =>
            errors[0] ? { status: toApiError(errors[0]).status, headers: ctx?.response.headers ?? {} } : { headers: ctx?.response.headers ?? {} },
        });
        return;
      }
      if (path.startsWith("/site/")) {
        if (await handleSiteRoute(db, req, res, path, { callbackSecret: options.siteCallbackSecret })) return;
      }
      if (path.startsWith("/embed/")) {
        if (req.method === "POST") {
          const parsed = await readJsonBody(req);
          if (parsed) request.body = parsed.body;
        }
        const embedDeps = { db, upstream, logger, keepAliveMs: options.sseKeepAliveMs, siteLoginUrl: options.siteLoginUrl ?? "/site/login" };
        if (await handleEmbedRoute(embedDeps, request, res, path)) return;
      }
      if (path === "/v1" || path.startsWith("/v1/")) {
        if (req.method !== "GET" && req.method !== "HEAD") {
          const parsed = await readJsonBody(req);
          if (parsed) request.body = parsed.body;
          const streamRoute = matchStreamRoute(req.method, path, request.body);
          if (streamRoute) {
            await streamMessage({ db, upstream, logger, keepAliveMs: options.sseKeepAliveMs }, request, res, streamRoute);
            return;
          }
        }
        await rest(request, res);
        return;
      }
      writeErrorResponse(res, requestId, new AppError("not_found", "no such route"));
    } catch (error) {
      if (!res.headersSent) writeErrorResponse(res, requestId, error);
      else res.destroy();
      if (!isAppError(error)) {
        logger.error("request failed", { request_id: requestId, error: describe(error) });
      }
    }
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
