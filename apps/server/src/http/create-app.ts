import type { ServerResponse } from "node:http";

import {
  buildOpenApiDocument,
  createRestHandler,
  createStreamHandler,
  LICENSE_PATH,
  LICENSE_TEXT,
  restMethodsOf,
  restRouteOf,
  type ApiDeps,
  type ApiRequest,
} from "@mga/api";

import type { Logger } from "../log";
import type { Ops } from "../ops/ops";
import { HEALTH_PATHS, healthRoutes } from "../ops/ops-routes";
import { requestTelemetry } from "../ops/request-telemetry";
import type { IsTrustedProxy } from "./client-address";
import { embedRoutes } from "./embed/embed-routes";
import { recordApiRequest } from "./record-api-request";
import { logFailure, requestPipeline } from "./request-pipeline";
import { routeTable } from "./route-table";
import { siteRoutes } from "./site/site-routes";

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
  /** Reverse proxies in front whose X-Forwarded-For is believed (TRUST_PROXY); none by default. */
  trustedProxy?: IsTrustedProxy;
  /** True once the instance is shutting down (requests get 503). */
  isDraining?: () => boolean;
  /** Metrics, traces and the readiness check (ops/). */
  ops: Ops;
}

/**
 * The public listener, for partners' servers and the hosted chat's browsers (the staff
 * console's /trpc is on the admin listener, admin-app.ts):
 *   GET /v1/openapi.json   the generated OpenAPI document
 *   GET /license           the license its `info.license.url` points to
 *   POST …messages + stream the SSE answers (api's stream handler)
 *   /v1/*                  the REST surface (trpc-to-openapi over the routers)
 *   /embed/…               the hosted chat: page and browser routes (embed/)
 *   /site/…                the built-in site login and its password and email pages (site/)
 *   GET /healthz, /readyz  liveness and readiness, for a load balancer (ops/ops-routes.ts;
 *                          GET /metrics is on the admin listener only)
 * Each path answers its own methods (HEAD wherever GET is); any other gets 405 with `Allow`.
 */
export function createApp(options: AppOptions) {
  const { db, logger, upstream } = options;
  const rest = createRestHandler({
    ...options,
    onError: (error, req) => logFailure(logger, req, error),
  });
  // A stream that fails after its first frame ends with the terminal error frame; what is worth logging is logged here.
  const onStreamError = (error: unknown, req: ApiRequest) =>
    logger.error("stream failed", {
      request_id: req.requestId,
      error:
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error),
    });
  const streamOptions = { keepAliveMs: options.sseKeepAliveMs, onError: onStreamError, observer: options.observer };
  const stream = createStreamHandler({ ...options, ...streamOptions });
  let openApiJson: string | undefined;
  const embedDeps = {
    db,
    upstream,
    ...streamOptions,
    appUrl: options.appUrl,
    siteLoginUrl: options.siteLoginUrl ?? "/site/login",
  };
  const siteDeps = {
    db,
    callbackSecret: options.siteCallbackSecret,
    queue: options.queue,
    directory: options.directory,
  };
  const routes = routeTable([
    {
      method: "GET",
      path: "/v1/openapi.json",
      handle(_req, res) {
        openApiJson ??= JSON.stringify(buildOpenApiDocument(options.publicBaseUrl));
        res.setHeader("Content-Type", "application/json");
        res.end(openApiJson);
      },
    },
    {
      method: "GET",
      path: LICENSE_PATH,
      handle(_req, res) {
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end(LICENSE_TEXT);
      },
    },
    ...healthRoutes(options.ops.readiness),
    ...siteRoutes(siteDeps),
    ...embedRoutes(embedDeps),
  ]);
  const isRest = (path: string) => path === "/v1" || path.startsWith("/v1/");

  // Route templates only: a /v1 path by its OpenAPI path, never as sent (docs/decisions.md, "Metrics").
  const routeOf = (path: string) => routes.templateOf(path) ?? (isRest(path) ? restRouteOf(path) : undefined);
  return requestPipeline(
    {
      logger,
      trustedProxy: options.trustedProxy ?? (() => false),
      isDraining: options.isDraining,
      answersWhileDraining: HEALTH_PATHS,
      methodsOf: (path) => routes.methodsOf(path) ?? (isRest(path) ? restMethodsOf(path) : undefined),
      telemetry: requestTelemetry("public", options.ops, routeOf),
      onFinished: (req, res, ms) => {
        if (isRest((req.url ?? "").split("?")[0] ?? "")) recordApiRequest(db, req, res, ms, logger);
      },
    },
    async (req: ApiRequest, res: ServerResponse, path) => {
      if (await routes.dispatch(req, res, path)) return true;
      if (!isRest(path)) return false;
      // Returned, not awaited: this function's frame is not kept while the stream lasts (stream-handler.ts).
      const streaming = stream(req, res, path);
      if (streaming) return streaming.then(() => true);
      // HEAD is answered as GET would be (the key checked, 401 without one); Node sends no body for it.
      if (req.method === "HEAD") req.method = "GET";
      await rest(req, res);
      return true;
    },
  );
}
