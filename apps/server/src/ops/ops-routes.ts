import type { ServerResponse } from "node:http";

import type { ApiRequest } from "@mga/api";

import type { Route } from "../http/route-table";
import type { Metrics } from "./metrics";
import type { Readiness } from "./readiness";

/** The paths a draining instance still answers (the pipeline refuses every other with 503). */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(["/healthz", "/readyz"]);

/**
 * GET /healthz (alive: the process answers) and GET /readyz (should get traffic), on both
 * listeners, for a load balancer (README, "Operations"). /readyz answers 503 with the failed
 * check named while the instance drains, cannot reach its database, lacks a migration or has
 * no job queue; its body is for people, its status for the balancer.
 */
export function healthRoutes(readiness: Readiness): Route[] {
  return [
    { method: "GET", path: "/healthz", handle: healthz },
    {
      method: "GET",
      path: "/readyz",
      async handle(req, res) {
        const report = await readiness.check();
        res.statusCode = report.ready ? 200 : 503;
        if (!report.ready) res.setHeader("Retry-After", "1");
        sendJson(res, {
          status: report.ready ? "ready" : "not_ready",
          checks: report.checks,
          request_id: req.requestId,
        });
      },
    },
  ];
}

/** GET /metrics in Prometheus's text format: the admin listener's only (docs/decisions.md, "Metrics"). */
export function metricsRoute(
  metrics: Metrics,
  exposition: () => Promise<string> = () => metrics.registry.metrics(),
): Route {
  return {
    method: "GET",
    path: "/metrics",
    async handle(_req, res) {
      const body = await exposition();
      res.setHeader("Content-Type", metrics.registry.contentType);
      res.setHeader("Cache-Control", "no-store");
      res.end(body);
    },
  };
}

export function healthz(req: ApiRequest, res: ServerResponse): void {
  sendJson(res, { status: "ok", request_id: req.requestId });
}

function sendJson(res: ServerResponse, body: object): void {
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Cache-Control", "no-store");
  res.end(JSON.stringify(body));
}
