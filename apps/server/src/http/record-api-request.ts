import type { ServerResponse } from "node:http";

import type { ApiRequest } from "@mga/api";
import type { Database } from "@mga/core/db";
import { recordFinishedRequest } from "@mga/core/usage";

import type { Logger } from "../log";

/**
 * Hands a finished /v1 request to usage and the request log (core's in-memory buffer, written
 * off the request path): what the request's record noted (route template, key, error code,
 * answer, resource) with the status and latency. A request cut short before its status was sent
 * is logged with 499, nginx's "client closed request", so it is never counted as a success.
 */
export function recordApiRequest(db: Database, req: ApiRequest, res: ServerResponse, ms: number, logger: Logger): void {
  const record = req.record ?? {};
  try {
    recordFinishedRequest(db, {
      requestId: req.requestId ?? "",
      at: new Date(),
      method: req.method ?? "GET",
      route: record.route,
      routeGroup: record.routeGroup,
      status: res.headersSent ? res.statusCode : 499,
      latencyMs: ms,
      errorCode: record.errorCode,
      keyId: record.keyId,
      organizationId: record.organizationId,
      answer: record.answer,
      tokensUsed: record.tokensUsed,
      resourceId: record.resourceId,
      launch: record.launch,
    });
  } catch (error) {
    // Never the request's failure: it has been answered already.
    logger.warn("usage not recorded", { request_id: req.requestId, error: String(error) });
  }
}
