import type { Database } from "../db/database";
import { decodeCursor, encodeCursor } from "../paging/cursor";
import { type UsageStatusClass } from "./usage-values";

/** One logged /v1 request (what support sees; never a body, secret or personal data). */
export interface LoggedRequest {
  requestId: string;
  at: Date;
  organizationId: string | null;
  apiKeyId: string | null;
  method: string;
  route: string;
  routeGroup: string;
  status: number;
  latencyMs: number;
  errorCode: string | null;
  streamed: boolean;
  resourceId: string | null;
}

export interface RequestLogFilters {
  organizationId: string;
  apiKeyId?: string | undefined;
  /** An exact status (404) or a class ("4xx"). */
  status?: number | UsageStatusClass | undefined;
  /** A route template as logged ("GET /v1/conversations/{id}"). */
  route?: string | undefined;
  /** Requests at or after / before these instants. */
  since?: Date | undefined;
  until?: Date | undefined;
}

export interface RequestLogPage {
  requests: LoggedRequest[];
  nextCursor: string | null;
}

const COLUMNS = `request_id AS "requestId", at, organization_id AS "organizationId", api_key_id AS "apiKeyId", method, route, route_group AS "routeGroup",
  status, latency_ms AS "latencyMs", error_code AS "errorCode", streamed, resource_id AS "resourceId"`;

/**
 * An organization's logged requests (or one key's), newest first, filtered; keyset pages with
 * the list's signed cursor. The key filter is combined with the organization's, so another
 * organization's key reads nothing.
 */
export async function listRequestLog(
  db: Database,
  filters: RequestLogFilters & { limit: number; cursor?: string | undefined },
): Promise<RequestLogPage> {
  const { limit, cursor, ...where } = filters;
  const cursorFilters = { ...where, since: where.since?.toISOString(), until: where.until?.toISOString() };
  const after = decodeCursor(db.secrets, cursor, cursorFilters);
  const statusClass = typeof where.status === "string" ? Number(where.status[0]) : null;
  const { rows } = await db.sql.query<LoggedRequest>(
    `SELECT ${COLUMNS} FROM request_log
     WHERE organization_id = $1
       AND ($2::text IS NULL OR api_key_id = $2)
       AND ($3::int IS NULL OR status = $3)
       AND ($4::int IS NULL OR status / 100 = $4)
       AND ($5::text IS NULL OR route = $5)
       AND ($6::timestamptz IS NULL OR at >= $6)
       AND ($7::timestamptz IS NULL OR at < $7)
       AND ($8::timestamptz IS NULL OR (at, request_id) < ($8, $9))
     ORDER BY at DESC, request_id DESC
     LIMIT $10`,
    [
      where.organizationId,
      where.apiKeyId ?? null,
      typeof where.status === "number" ? where.status : null,
      statusClass,
      where.route ?? null,
      where.since ?? null,
      where.until ?? null,
      after?.createdAt ?? null,
      after?.id ?? null,
      limit + 1,
    ],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    requests: page,
    nextCursor:
      rows.length > limit && last
        ? encodeCursor(db.secrets, { createdAt: last.at.toISOString(), id: last.requestId }, cursorFilters)
        : null,
  };
}

/** The route templates an organization's log holds (the console's route filter). */
export async function loggedRoutes(db: Database, organizationId: string): Promise<string[]> {
  const { rows } = await db.sql.query<{ route: string }>(
    `SELECT DISTINCT route FROM request_log WHERE organization_id = $1 ORDER BY route`,
    [organizationId],
  );
  return rows.map((row) => row.route);
}

/** One logged request by its id (the console's search), whichever organization it belongs to. */
export async function findLoggedRequest(db: Database, requestId: string): Promise<LoggedRequest | undefined> {
  const { rows } = await db.sql.query<LoggedRequest>(`SELECT ${COLUMNS} FROM request_log WHERE request_id = $1`, [
    requestId,
  ]);
  return rows[0];
}
