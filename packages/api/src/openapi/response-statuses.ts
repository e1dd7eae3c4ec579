/**
 * The HTTP statuses a /v1 operation may answer with, as the OpenAPI document lists them.
 * A procedure declares only what is its own (its success statuses, and the error statuses
 * only some routes can produce); what every key-authenticated route can answer is added here
 * once, so the document, the spec comparison and the server tests' status check agree.
 */

/** Success statuses; the procedure sets `ctx.response.status` for anything but 200. */
export const SUCCESS_STATUSES = [200, 201, 202] as const;
export type SuccessStatus = (typeof SUCCESS_STATUSES)[number];

/**
 * Error statuses a procedure declares in its meta: 404 where it looks something up, 409
 * where a conflict can happen (a write racing another, an idempotency key reused, a state
 * that forbids the change), 502 where it calls the upstream chat service.
 */
export const PROCEDURE_ERROR_STATUSES = [404, 409, 502] as const;
export type ProcedureErrorStatus = (typeof PROCEDURE_ERROR_STATUSES)[number];

/**
 * Every key-authenticated route: 400 (the one input reader checks every path and query, and
 * every input schema is strict), 401 (the key), 429 (its rate limit), 500 (an unexpected failure).
 */
export const KEY_ROUTE_ERROR_STATUSES = [400, 401, 429, 500] as const;
/** Routes whose meta names a scope: a key without it, or (partner routes) an integration it may not use. */
export const SCOPED_ROUTE_ERROR_STATUSES = [403] as const;
/** Routes with a request body: too large (413) or not sent as JSON (415). */
export const BODY_ROUTE_ERROR_STATUSES = [413, 415] as const;

export const ERROR_STATUSES = [
  ...KEY_ROUTE_ERROR_STATUSES,
  ...SCOPED_ROUTE_ERROR_STATUSES,
  ...PROCEDURE_ERROR_STATUSES,
  ...BODY_ROUTE_ERROR_STATUSES,
].sort((a, b) => a - b);
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** What the document lists for one operation, from its procedure's meta. */
export function errorStatusesOf(
  meta: { scope?: string | undefined; errors?: readonly ProcedureErrorStatus[] | undefined },
  hasBody: boolean,
): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([...KEY_ROUTE_ERROR_STATUSES, ...(meta.errors ?? [])]);
  if (meta.scope) for (const status of SCOPED_ROUTE_ERROR_STATUSES) statuses.add(status);
  if (hasBody) for (const status of BODY_ROUTE_ERROR_STATUSES) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}
