import type { ServerResponse } from "node:http";

import { toApiError, type ApiErrorResponse } from "../errors/to-api-error";
import { noteErrorCode } from "../pipeline/request-record";

/** Sends the error envelope for failures the host detects before a procedure runs. */
export function writeErrorResponse(res: ServerResponse, requestId: string, error: unknown): void {
  const mapped = toApiError(error);
  noteErrorCode(res.req, mapped.code);
  const body = errorBody(mapped, requestId);
  res.statusCode = mapped.status;
  for (const [name, value] of Object.entries(mapped.headers)) res.setHeader(name, value);
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}

/** The spec's error envelope, as sent. */
export function errorBody(mapped: ApiErrorResponse, requestId: string): string {
  return JSON.stringify({ error: { code: mapped.code, message: mapped.message, request_id: requestId } });
}
