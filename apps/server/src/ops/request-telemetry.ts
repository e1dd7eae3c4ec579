import type { ServerResponse } from "node:http";
import type { Span } from "@opentelemetry/api";
import type { Counter, Histogram } from "prom-client";

import type { ApiRequest } from "@mga/api";

import type { Metrics } from "./metrics";
import { SpanKind, SpanStatusCode } from "./spans";
import type { Tracing } from "./tracing";

/** What the request pipeline records of each response on one listener. */
export interface RequestTelemetry {
  readonly tracing: Tracing | undefined;
  /** Counts and times a response once it ended (finished, or cut short: status "aborted"), and ends its span. */
  record(req: ApiRequest, res: ServerResponse, method: string, started: bigint, span: Span | undefined): void;
}

/** The label of a path no route has: its raw text would be a new time series per scanner's guess. */
export const UNMATCHED_ROUTE = "unmatched";

/** Methods labelled as themselves; Node's parser accepts a few dozen more (PROPFIND, …), labelled "other". */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The telemetry of one listener. `routeOf` gives a path's route template (the route tables'
 * paths, the OpenAPI paths of /v1, the admin's procedure names), UNMATCHED_ROUTE for any other.
 */
export function requestTelemetry(
  listener: "public" | "admin",
  ops: { metrics: Metrics; tracing: Tracing | undefined },
  routeOf: (path: string) => string | undefined,
): RequestTelemetry {
  const { metrics, tracing } = ops;
  // The label children of each (method, route, status), bound once: a request then costs two
  // lookups in this map instead of prom-client hashing a label object twice. Bounded, as the labels are.
  const series = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<string> }>();
  return {
    tracing,
    record(req, res, method, started, span) {
      const route = routeOf((req.url ?? "/").split("?")[0] ?? "/") ?? UNMATCHED_ROUTE;
      const status = res.writableFinished ? String(res.statusCode) : "aborted";
      const label = METHODS.has(method) ? method : "other";
      const key = `${label} ${status} ${route}`;
      let children = series.get(key);
      if (!children) {
        const labels = { listener, method: label, route, status };
        children = { count: metrics.httpRequests.labels(labels), duration: metrics.httpDuration.labels(labels) };
        series.set(key, children);
      }
      children.count.inc();
      children.duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
      if (!span) return;
      span.updateName(`${method} ${route}`);
      span.setAttribute("http.route", route);
      if (res.writableFinished) span.setAttribute("http.response.status_code", res.statusCode);
      if (!res.writableFinished || res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/** The span of one request (its parent the caller's `traceparent`, if any), carrying its request id. */
export function startRequestSpan(tracing: Tracing, req: ApiRequest, requestId: string): Span {
  return tracing.tracer.startSpan(
    req.method ?? "GET",
    {
      kind: SpanKind.SERVER,
      attributes: {
        "mga.request_id": requestId,
        "http.request.method": req.method ?? "GET",
        "url.path": (req.url ?? "/").split("?")[0] ?? "/",
      },
    },
    tracing.incoming(req.headers),
  );
}
