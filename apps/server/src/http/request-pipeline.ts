import type { IncomingMessage, ServerResponse } from "node:http";

import { writeErrorResponse, type ApiRequest } from "@mga/api";
import { AppError, isAppError } from "@mga/core/errors";
import { newTimeOrderedId } from "@mga/core/ids";

import type { Logger } from "../log";
import { startRequestSpan, type RequestTelemetry } from "../ops/request-telemetry";
import { clientAddressOf, type IsTrustedProxy } from "./client-address";
import { checkRequestTarget, readRequestBody } from "./request-input";
import { methodNotAllowed } from "./route-table";

/**
 * What every request goes through on both listeners (the public API and the admin API), before
 * and around its route: a request id (X-Request-Id, and `request_id` in every body), the
 * security headers every response carries, an access log line, the client's address, an
 * abort signal for when the client goes away, the checks of request-input.ts with the body
 * parsed into `req.body` (JSON) or `req.form`, and the error envelope for anything a route
 * throws (a 500 only for what nobody anticipated, logged with the request id, never detailed).
 * A client that disconnects first is logged once at info ("client disconnected"), and what
 * its departure makes fail (the body read, the upstream call) is not logged as an error.
 *
 * A route answers and returns true, or returns false for the next one; none left is a 404.
 * A method the path does not answer (`methodsOf`, route-table.ts) is a 405 with `Allow`, before
 * the body is read. A listener whose clients read another error shape (the admin listener's
 * tRPC client) writes its errors itself (`writeError`).
 *
 * Each response is counted and timed by its route template (`telemetry`, ops/); with tracing on
 * the request runs in a span of its own, the parent of its database, upstream and job spans.
 */
export type Route = (req: ApiRequest, res: ServerResponse, path: string) => Promise<boolean>;

export interface PipelineOptions {
  logger: Logger;
  trustedProxy: IsTrustedProxy;
  /** The key the console signs its visitor's address with (admin listener only; client-address.ts). */
  consoleKey?: Buffer;
  /** The methods a path answers; undefined leaves the path to its routes. */
  methodsOf?: (path: string) => readonly string[] | undefined;
  writeError?: (req: ApiRequest, res: ServerResponse, error: unknown) => void;
  /** True once the instance is shutting down: a request on a kept-alive connection gets 503 and Retry-After. */
  isDraining?: () => boolean;
  /** Paths still answered while draining (/healthz, /readyz: the balancer must see the drain). */
  answersWhileDraining?: ReadonlySet<string>;
  /** This listener's request metrics and traces. */
  telemetry?: RequestTelemetry;
  /**
   * Told once per request, when its response has closed (finished or cut short; `ms` is the
   * latency until then) and its route has returned (a stream's answer runs on after its client
   * goes): usage and the request log. Must only note it in memory.
   */
  onFinished?: (req: ApiRequest, res: ServerResponse, ms: number) => void;
}

export function requestPipeline(options: PipelineOptions, route: Route) {
  const { logger, telemetry } = options;
  const tracing = telemetry?.tracing;
  const writeError =
    options.writeError ??
    ((req: ApiRequest, res: ServerResponse, error: unknown) => writeErrorResponse(res, req.requestId ?? "", error));
  return async function handle(incoming: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const req = incoming as ApiRequest;
    // Time-ordered: the request log's primary key takes it at the B-tree's right edge (new-id.ts).
    const requestId = newTimeOrderedId("req");
    req.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    res.setHeader("X-Content-Type-Options", "nosniff");
    req.clientAddress = clientAddressOf(req, options.trustedProxy, options.consoleKey);
    // Aborted when the client disconnects before the response is finished: upstream work stops.
    const clientGone = new AbortController();
    req.clientGone = clientGone.signal;
    // The method as the client sent it (HEAD is served as GET further on).
    const method = req.method ?? "GET";
    // One check when tracing is off (ops/tracing.ts).
    const span = tracing ? startRequestSpan(tracing, req, requestId) : undefined;
    // Set when the pipeline itself cuts the response short (no "client disconnected" line then).
    const cut = { short: false };
    // onFinished runs once both have happened: the response closed and the route returned.
    let closedAfterMs: number | undefined;
    let routeReturned = false;
    res.on("close", () => {
      closedAfterMs = msSince(started);
      if (routeReturned) options.onFinished?.(req, res, closedAfterMs);
      if (res.writableFinished) return;
      clientGone.abort();
      telemetry?.record(req, res, method, started, span);
      if (cut.short) return;
      logger.info("client disconnected", {
        request_id: requestId,
        method: req.method,
        path: pathOf(req),
        ms: msSince(started),
      });
    });
    res.on("finish", () => {
      telemetry?.record(req, res, method, started, span);
      logger.info("request", {
        request_id: requestId,
        method: req.method,
        path: pathOf(req),
        status: res.statusCode,
        ms: msSince(started),
        ...(span ? { trace_id: span.spanContext().traceId } : {}),
      });
    });
    const served = span && tracing ? tracing.withSpan(span, () => serve(req, res, cut)) : serve(req, res, cut);
    // Returned, not awaited: an open stream holds no suspended frame of this function (stream-handler.ts).
    return served.then(() => {
      routeReturned = true;
      if (closedAfterMs !== undefined) options.onFinished?.(req, res, closedAfterMs);
    });
  };

  /** The request's route; what it throws becomes the error envelope, or cuts a response already started. */
  function serve(req: ApiRequest, res: ServerResponse, cut: { short: boolean }): Promise<void> {
    return answer(req, res).catch((error: unknown) => {
      // Logged first: cutting the response short below destroys the socket, which reads as a client gone.
      if (!isAppError(error)) logFailure(logger, req, error);
      if (!res.headersSent) writeError(req, res, error);
      else {
        cut.short = true;
        res.destroy();
      }
    });
  }

  async function answer(req: ApiRequest, res: ServerResponse): Promise<void> {
    const url = req.url ?? "/";
    if (options.isDraining?.() && !options.answersWhileDraining?.has(url.split("?")[0] ?? "/")) {
      // The load balancer sends the retry to another instance; this connection is not reused.
      res.setHeader("Connection", "close");
      throw new AppError("internal_error", "this server is restarting; retry the request", {
        status: 503,
        headers: { "Retry-After": "1" },
      });
    }
    checkRequestTarget(url);
    const path = url.split("?")[0] ?? "/";
    const allowed = options.methodsOf?.(path);
    if (allowed && !allowed.includes(req.method ?? "")) throw methodNotAllowed(req.method, allowed);
    const body = await readRequestBody(req);
    if (body.kind === "json") req.body = body.value;
    if (body.kind === "form") req.form = body.value;
    return route(req, res, path).then((answered) => {
      if (!answered) throw new AppError("not_found", "no such route");
    });
  }
}

/**
 * Logs what nobody anticipated with its stack, unless the client had already gone: then the
 * failure is the disconnect's consequence (an aborted body read or upstream call), which the
 * pipeline has logged at info.
 */
export function logFailure(logger: Logger, req: ApiRequest, error: unknown, message = "request failed"): void {
  if (hasGone(req)) return;
  logger.error(message, { request_id: req.requestId, error: describe(error) });
}

/** The client closed its connection before the response was finished. */
export function hasGone(req: ApiRequest): boolean {
  // The socket is checked too: a body read fails on the socket's close before the response's close event.
  return req.clientGone?.aborted === true || req.socket.destroyed;
}

function pathOf(req: ApiRequest): string | undefined {
  return (req.url ?? "").split("?")[0];
}

function msSince(started: bigint): number {
  return Number((process.hrtime.bigint() - started) / 1000n) / 1000;
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
