import type { IncomingMessage } from "node:http";

import type { ApiRequest, RequestRecord } from "../context";

/** Ids this service issues for what a request can touch: conversations, operations, imports, launches. */
const RESOURCE_ID = /^(conv|op|imp|lch)_[A-Za-z0-9]{22}$/;
/** Where a procedure's output or input names what it touched, most specific first. */
const RESOURCE_FIELDS = ["conversation_id", "conversationId", "operation_id", "job_id", "launch_id", "id"] as const;

/** The matched route: its template and group, from the procedure's own metadata (never the raw path). */
export function noteRoute(
  record: RequestRecord | undefined,
  method: string,
  path: string,
  group: string | undefined,
): void {
  if (!record) return;
  record.route = `${method} ${path}`;
  record.routeGroup = group ?? "other";
}

/**
 * The resource a procedure touched, for the request log's link: the first id field of its output,
 * else of its input (a path parameter), kept only when it has the shape of an id this service
 * issued, so nothing a client typed (an email in a path) is ever logged.
 */
export function noteTouchedResource(record: RequestRecord | undefined, ...sources: unknown[]): void {
  if (!record || record.resourceId) return;
  for (const source of sources) {
    if (typeof source !== "object" || source === null) continue;
    for (const field of RESOURCE_FIELDS) {
      const value = (source as Record<string, unknown>)[field];
      if (typeof value === "string" && RESOURCE_ID.test(value)) {
        record.resourceId = value;
        return;
      }
    }
  }
}

/** The error code a response is sent with (the JSON envelope); the request's record keeps the first. */
export function noteErrorCode(req: IncomingMessage | undefined, code: string): void {
  const record = (req as ApiRequest | undefined)?.record;
  if (record && !record.errorCode) record.errorCode = code;
}
