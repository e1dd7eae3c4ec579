import type { IncomingMessage, ServerResponse } from "node:http";
import { type ApiRequest, writeErrorResponse } from "@mga/api";
import { AppError, isAppError } from "@mga/core/errors";
import { newId } from "@mga/core/ids";
import type { Logger } from "../log";
import { clientAddressOf, type IsTrustedProxy } from "./client-address";
import { checkRequestTarget, readRequestBody } from "./request-input";

/**
 * What every request goes through on both listeners (the public API and the admin API), before
 * and around its route: a request id (X-Request-Id, and `request_id` in every body), the
 * security headers every response carries, an access log line, the client's address, an
 * abort signal for when the client goes away, the checks of request-input.ts with the body
 * parsed into `req.body` (JSON) or `req.form`, and the error envelope for anything a route
 * throws (a 500 only for what nobody anticipated, logged with the request id, never detailed).
 *
 * A route answers and returns true, or returns false for the next one; none left is a 404.
 */
export type Route = (req: ApiRequest, res: ServerResponse, path: string) => Promise<boolean>;

export function requestPipeline(options: { logger: Logger; trustedProxy: IsTrustedProxy }, route: Route) {
  const { logger } = options;
  return async function handle(incoming: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const req = incoming as ApiRequest;
    const requestId = newId("req");
    req.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    res.setHeader("X-Content-Type-Options", "nosniff");
    req.clientAddress = clientAddressOf(req, options.trustedProxy);
    // Aborted when the client disconnects before the response is finished: upstream work stops.
    const clientGone = new AbortController();
    req.clientGone = clientGone.signal;
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
      const url = req.url ?? "/";
      checkRequestTarget(url);
      const body = await readRequestBody(req);
      if (body.kind === "json") req.body = body.value;
      if (body.kind === "form") req.form = body.value;
      const path = url.split("?")[0] ?? "/";
      if (!(await route(req, res, path))) writeErrorResponse(res, requestId, new AppError("not_found", "no such route"));
    } catch (error) {
      if (!res.headersSent) writeErrorResponse(res, requestId, error);
      else res.destroy();
      if (!isAppError(error)) logger.error("request failed", { request_id: requestId, error: describe(error) });
    }
  };
}

export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
