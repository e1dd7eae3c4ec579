import type { ServerResponse } from "node:http";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";

import {
  adminRouter,
  createContextFactory,
  toApiError,
  trpcErrorShape,
  writeErrorResponse,
  type ApiDeps,
  type ApiRequest,
} from "@mga/api";
import { AppError } from "@mga/core/errors";

import type { Logger } from "../log";
import type { Ops } from "../ops/ops";
import { HEALTH_PATHS, healthRoutes, metricsRoute } from "../ops/ops-routes";
import { requestTelemetry } from "../ops/request-telemetry";
import type { IsTrustedProxy } from "./client-address";
import { MAX_BODY_BYTES, parseJsonInput } from "./request-input";
import { logFailure, requestPipeline } from "./request-pipeline";
import { routeTable } from "./route-table";

const TRPC = "/trpc/";

/**
 * The admin listener (ADMIN_API_PORT, loopback by default): the staff console's typed tRPC
 * (`/trpc/staff.*`, `/trpc/system.*`) and GET /metrics, never reachable on the public port;
 * /healthz and /readyz as on the public one. Batching is off, so
 * one HTTP request is one procedure call and every sign-in attempt is counted as one. The
 * console forwards its visitor's address signed with a key derived from SECRET_KEY
 * (client-address.ts); X-Forwarded-For only from TRUST_PROXY, as on the public listener.
 *
 * A query answers GET (and HEAD, as GET would, without a body), a mutation POST; any other
 * method is a 405 with `Allow` before tRPC sees it (tRPC's fetch adapter throws on TRACE). Every
 * refusal under /trpc, including those made before tRPC runs (a bad input, a method), is in
 * tRPC's error shape, which is what the console's client reads.
 */
export function createAdminApp(
  options: ApiDeps & { logger: Logger; trustedProxy?: IsTrustedProxy; isDraining?: () => boolean; ops: Ops },
) {
  const createContext = createContextFactory(options);
  const trustedProxy = options.trustedProxy ?? (() => false);
  const consoleKey = options.db.secrets.macKey("console-forwarding");
  // /metrics here only: the public port never tells the world its traffic (docs/decisions.md, "Metrics").
  const routes = routeTable([
    ...healthRoutes(options.ops.readiness),
    metricsRoute(options.ops.metrics, options.ops.exposition),
  ]);
  // At run time tRPC keeps every procedure by its dotted path here (its type shows the nested record).
  const procedures = adminRouter._def.procedures as unknown as Record<string, { _def: { type: string } } | undefined>;
  const procedureOf = (path: string) => {
    const name = path.slice(TRPC.length);
    // Own keys only: `/trpc/constructor` names no procedure.
    return path.startsWith(TRPC) && Object.hasOwn(procedures, name) ? procedures[name] : undefined;
  };
  const methodsOf = (path: string) => {
    const procedure = procedureOf(path);
    if (procedure) return procedure._def.type === "query" ? ["GET", "HEAD"] : ["POST"];
    return routes.methodsOf(path);
  };

  return requestPipeline(
    {
      logger: options.logger,
      trustedProxy,
      consoleKey,
      isDraining: options.isDraining,
      answersWhileDraining: HEALTH_PATHS,
      methodsOf,
      // A procedure's path names it (a closed set); anything else is unmatched.
      telemetry: requestTelemetry("admin", options.ops, (path) => (procedureOf(path) ? path : routes.templateOf(path))),
      writeError(req, res, error) {
        const path = (req.url ?? "/").split("?")[0] ?? "/";
        if (!path.startsWith(TRPC)) return writeErrorResponse(res, req.requestId ?? "", error);
        const mapped = toApiError(error);
        const body = JSON.stringify({
          error: trpcErrorShape(error, { requestId: req.requestId ?? "", path: path.slice(TRPC.length) }),
        });
        res.statusCode = mapped.status;
        for (const [name, value] of Object.entries(mapped.headers)) res.setHeader(name, value);
        res.setHeader("Content-Type", "application/json");
        res.setHeader("Content-Length", Buffer.byteLength(body));
        res.end(body);
      },
    },
    async (req: ApiRequest, res: ServerResponse, path) => {
      if (await routes.dispatch(req, res, path)) return true;
      if (!path.startsWith(TRPC)) return false;
      // Batching is off: ten sign-ins in one request would be counted as one attempt.
      if (path.includes(","))
        throw new AppError("invalid_request", "batched calls are not accepted; send one procedure per request");
      if (!procedureOf(path)) throw new AppError("not_found", "no such route");
      // A query's input travels as JSON in the URL: the same checks as a body.
      const input = new URL(req.url ?? "/", "http://admin").searchParams.get("input");
      if (input !== null) parseJsonInput(input, "input");
      // HEAD runs the query as GET would (the session checked); Node sends no body for it.
      if (req.method === "HEAD") req.method = "GET";
      await nodeHTTPRequestHandler({
        req,
        res,
        router: adminRouter,
        path: path.slice(TRPC.length),
        allowBatching: false,
        maxBodySize: MAX_BODY_BYTES,
        createContext: ({ req: incoming }) => createContext({ req: incoming }),
        onError: ({ error }) => {
          if (toApiError(error).status >= 500) logFailure(options.logger, req, error.cause ?? error);
        },
        // The console's cookie, and the statuses of domain errors (401, 403, …) rather than 500.
        responseMeta: ({ ctx, errors }) => {
          const headers = ctx?.response.headers ?? {};
          if (!errors[0]) return { headers };
          const mapped = toApiError(errors[0]);
          return { status: mapped.status, headers: { ...headers, ...mapped.headers } };
        },
      });
      return true;
    },
  );
}
