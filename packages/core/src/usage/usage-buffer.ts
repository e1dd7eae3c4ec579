import type { Database } from "../db/database";
import { errorCode } from "../shared/files";
import type { FinishedRequest } from "./finished-request";
import { statusClassOf, utcDay } from "./usage-values";

/** The longest a finished request waits in memory before usage and the request log are written. */
export const USAGE_FLUSH_MS = 5_000;
/**
 * Request-log rows held at most while the database does not take them (a flush failing); past it
 * the newest are dropped and counted (`droppedLogRows`), so memory stays bounded. Usage counters
 * are aggregated per key and day, so they stay small and are never dropped.
 */
export const MAX_PENDING_LOG_ROWS = 50_000;
/**
 * Request-log rows written as soon as they are pending, without waiting for the timer: at a few
 * thousand requests a second, five seconds of rows would outlive the heap's young generation
 * and be promoted, and the old generation's collections cost every request (issue 26's bench).
 * Not while the last flush failed: the timer then paces the retries.
 */
export const LOG_BATCH_ROWS = 1_000;

interface UsageCounters {
  day: string;
  organizationId: string;
  keyId: string;
  routeGroup: string;
  statusClass: string;
  requests: number;
  streamedAnswers: number;
  jsonAnswers: number;
  tokensUsed: number;
  upstreamErrors: number;
  rateLimited: number;
}

interface LogRow {
  requestId: string;
  /** Milliseconds since the epoch: written as a number, no Date kept per row. */
  at: number;
  organizationId: string | null;
  keyId: string | null;
  method: string;
  route: string;
  routeGroup: string;
  status: number;
  latencyMs: number;
  errorCode: string | null;
  streamed: boolean;
  resourceId: string | null;
}

interface LaunchCounter {
  day: string;
  integrationId: string;
  organizationId: string;
  launches: number;
}

interface ActiveUser {
  day: string;
  integrationId: string;
  partnerUserId: string;
}

interface Pending {
  usage: Map<string, UsageCounters>;
  /** integration id + day → launches. */
  launches: Map<string, LaunchCounter>;
  /** integration id + day + partner user id. */
  activeUsers: Map<string, ActiveUser>;
  log: LogRow[];
}

/** What this instance holds until its next flush (`db.instance.usage`). */
export interface UsageBuffer {
  pending: Pending;
  timer: NodeJS.Timeout | undefined;
  flushing: Promise<void> | undefined;
  droppedLogRows: number;
  /** The last flush failed: no early flush until one succeeds (LOG_BATCH_ROWS). */
  failing: boolean;
  /** The timer is a full batch's, due at once. */
  batchDue: boolean;
}

const empty = (): Pending => ({ usage: new Map(), launches: new Map(), activeUsers: new Map(), log: [] });

/** Stands for "no route matched" in the log (an unknown path, a 405): never the raw path. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * Notes a finished /v1 request, in memory only: one counter increment (per key, UTC day, route
 * group and status class) and one request-log row, written by `flushUsage` at most
 * USAGE_FLUSH_MS later (and on shutdown), never on the request's path.
 */
export function recordFinishedRequest(db: Database, request: FinishedRequest): void {
  const buffer = (db.instance.usage ??= {
    pending: empty(),
    timer: undefined,
    flushing: undefined,
    droppedLogRows: 0,
    failing: false,
    batchDue: false,
  });
  const { pending } = buffer;
  const day = utcDay(request.at);
  const routeGroup = request.routeGroup ?? UNMATCHED_ROUTE;
  // Usage is per key: a request refused before its key was known counts nowhere (it is in the log).
  if (request.keyId && request.organizationId) {
    const statusClass = statusClassOf(request.status);
    const id = `${request.keyId}\u0000${day}\u0000${routeGroup}\u0000${statusClass}`;
    let counters = pending.usage.get(id);
    if (!counters) {
      counters = {
        day,
        organizationId: request.organizationId,
        keyId: request.keyId,
        routeGroup,
        statusClass,
        requests: 0,
        streamedAnswers: 0,
        jsonAnswers: 0,
        tokensUsed: 0,
        upstreamErrors: 0,
        rateLimited: 0,
      };
      pending.usage.set(id, counters);
    }
    counters.requests += 1;
    if (request.answer === "streamed") counters.streamedAnswers += 1;
    if (request.answer === "json") counters.jsonAnswers += 1;
    counters.tokensUsed += request.tokensUsed ?? 0;
    if (request.errorCode === "upstream_error") counters.upstreamErrors += 1;
    if (request.errorCode === "rate_limited") counters.rateLimited += 1;
    if (request.launch) {
      const { integrationId, partnerUserId } = request.launch;
      const launchId = `${integrationId}\u0000${day}`;
      const launches = pending.launches.get(launchId) ?? {
        day,
        integrationId,
        organizationId: request.organizationId,
        launches: 0,
      };
      launches.launches += 1;
      pending.launches.set(launchId, launches);
      pending.activeUsers.set(`${launchId}\u0000${partnerUserId}`, { day, integrationId, partnerUserId });
    }
  }
  if (pending.log.length < MAX_PENDING_LOG_ROWS) {
    pending.log.push({
      requestId: request.requestId,
      at: request.at.getTime(),
      organizationId: request.organizationId ?? null,
      keyId: request.keyId ?? null,
      method: request.method,
      route: request.route ?? UNMATCHED_ROUTE,
      routeGroup,
      status: request.status,
      latencyMs: Math.max(0, Math.round(request.latencyMs)),
      errorCode: request.errorCode ?? null,
      streamed: request.answer === "streamed",
      resourceId: request.resourceId ?? null,
    });
  } else buffer.droppedLogRows += 1;
  // A full batch goes on the next turn of the event loop (one timer, whatever arrives meanwhile).
  const batchFull = pending.log.length >= LOG_BATCH_ROWS && !buffer.failing && !buffer.flushing;
  if (!buffer.timer || (batchFull && !buffer.batchDue)) {
    clearTimeout(buffer.timer);
    buffer.batchDue = batchFull;
    buffer.timer = setTimeout(() => void flushUsage(db).catch(() => {}), batchFull ? 0 : USAGE_FLUSH_MS);
    // A process that is done does not wait for this; its shutdown flushes instead.
    buffer.timer.unref();
  }
}

/** Request-log rows this instance dropped because its buffer was full (the database refusing them meanwhile). */
export function droppedLogRows(db: Database): number {
  return db.instance.usage?.droppedLogRows ?? 0;
}

/**
 * Writes what was recorded through `db` so far: one additive upsert per table (count = count +
 * EXCLUDED.count), so instances sharing a database add up exactly; rows in primary-key order, so
 * two instances flushing at once never deadlock; one multi-row INSERT for the request log. Rows of
 * a key, organization, integration or user deleted meanwhile are skipped. What fails to be written
 * is put back for the next flush.
 */
export async function flushUsage(db: Database): Promise<void> {
  const buffer = db.instance.usage;
  if (!buffer) return;
  // A flush under way (the timer's) finishes first: a shutdown's flush returns only when all is written.
  await buffer.flushing?.catch(() => {});
  clearTimeout(buffer.timer);
  buffer.timer = undefined;
  buffer.batchDue = false;
  const pending = buffer.pending;
  if (pending.usage.size === 0 && pending.log.length === 0 && pending.launches.size === 0) return;
  buffer.pending = empty();
  const run = write(db, pending).then(
    () => {
      buffer.failing = false;
    },
    (error: unknown) => {
      buffer.failing = true;
      putBack(db, buffer, pending);
      throw error;
    },
  );
  buffer.flushing = run;
  try {
    await run;
  } finally {
    if (buffer.flushing === run) buffer.flushing = undefined;
  }
}

/** Each table in turn; what was written is cleared from `pending`, so a failure puts back only the rest. */
async function write(db: Database, pending: Pending): Promise<void> {
  await writeUsage(db, [...pending.usage.values()]);
  pending.usage.clear();
  await writeLaunches(db, [...pending.launches.values()], [...pending.activeUsers.values()]);
  pending.launches.clear();
  pending.activeUsers.clear();
  await writeLog(db, pending.log);
  pending.log = [];
}

/** What a failed flush had not written goes back in front of what was recorded meanwhile. */
function putBack(db: Database, buffer: UsageBuffer, failed: Pending): void {
  const current = buffer.pending;
  for (const [id, counters] of failed.usage) {
    const now = current.usage.get(id);
    if (!now) current.usage.set(id, counters);
    else
      for (const field of [
        "requests",
        "streamedAnswers",
        "jsonAnswers",
        "tokensUsed",
        "upstreamErrors",
        "rateLimited",
      ] as const)
        now[field] += counters[field];
  }
  for (const [id, launches] of failed.launches) {
    const now = current.launches.get(id);
    if (now) now.launches += launches.launches;
    else current.launches.set(id, launches);
  }
  for (const [id, user] of failed.activeUsers) current.activeUsers.set(id, user);
  const room = MAX_PENDING_LOG_ROWS - current.log.length;
  buffer.droppedLogRows += Math.max(0, failed.log.length - room);
  current.log = [...failed.log.slice(0, Math.max(0, room)), ...current.log];
  if (!buffer.timer) {
    buffer.timer = setTimeout(() => void flushUsage(db).catch(() => {}), USAGE_FLUSH_MS);
    buffer.timer.unref();
  }
}

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

async function writeUsage(db: Database, rows: UsageCounters[]): Promise<void> {
  if (rows.length === 0) return;
  // The primary key's order (api_key_id, day, route_group, status_class): concurrent flushes lock rows in the same order.
  rows.sort(byKey((row) => `${row.keyId}\u0000${row.day}\u0000${row.routeGroup}\u0000${row.statusClass}`));
  const column = <K extends keyof UsageCounters>(name: K) => rows.map((row) => row[name]);
  await db.sql.query(
    `INSERT INTO usage_daily AS u (day, organization_id, api_key_id, route_group, status_class, requests, streamed_answers, json_answers, tokens_used, upstream_errors, rate_limited)
     SELECT r.day, r.organization_id, r.api_key_id, r.route_group, r.status_class, r.requests, r.streamed_answers, r.json_answers, r.tokens_used, r.upstream_errors, r.rate_limited
     FROM unnest($1::date[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[])
       AS r(day, organization_id, api_key_id, route_group, status_class, requests, streamed_answers, json_answers, tokens_used, upstream_errors, rate_limited)
     WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = r.api_key_id)
     ON CONFLICT (api_key_id, day, route_group, status_class) DO UPDATE SET
       requests = u.requests + EXCLUDED.requests,
       streamed_answers = u.streamed_answers + EXCLUDED.streamed_answers,
       json_answers = u.json_answers + EXCLUDED.json_answers,
       tokens_used = u.tokens_used + EXCLUDED.tokens_used,
       upstream_errors = u.upstream_errors + EXCLUDED.upstream_errors,
       rate_limited = u.rate_limited + EXCLUDED.rate_limited`,
    [
      column("day"),
      column("organizationId"),
      column("keyId"),
      column("routeGroup"),
      column("statusClass"),
      column("requests"),
      column("streamedAnswers"),
      column("jsonAnswers"),
      column("tokensUsed"),
      column("upstreamErrors"),
      column("rateLimited"),
    ],
  );
}

async function writeLaunches(db: Database, launches: LaunchCounter[], users: ActiveUser[]): Promise<void> {
  if (launches.length > 0) {
    launches.sort(byKey((row) => `${row.integrationId}\u0000${row.day}`));
    await db.sql.query(
      `INSERT INTO integration_usage_daily AS u (day, integration_id, organization_id, launches)
       SELECT r.day, r.integration_id, r.organization_id, r.launches
       FROM unnest($1::date[], $2::text[], $3::text[], $4::bigint[]) AS r(day, integration_id, organization_id, launches)
       WHERE EXISTS (SELECT 1 FROM integrations i WHERE i.id = r.integration_id)
       ON CONFLICT (integration_id, day) DO UPDATE SET launches = u.launches + EXCLUDED.launches`,
      [
        launches.map((row) => row.day),
        launches.map((row) => row.integrationId),
        launches.map((row) => row.organizationId),
        launches.map((row) => row.launches),
      ],
    );
  }
  if (users.length > 0) {
    users.sort(byKey((row) => `${row.integrationId}\u0000${row.day}\u0000${row.partnerUserId}`));
    await db.sql.query(
      `INSERT INTO integration_active_users (day, integration_id, partner_user_id)
       SELECT r.day, r.integration_id, r.partner_user_id
       FROM unnest($1::date[], $2::text[], $3::text[]) AS r(day, integration_id, partner_user_id)
       WHERE EXISTS (SELECT 1 FROM partner_users p WHERE p.id = r.partner_user_id)
       ON CONFLICT DO NOTHING`,
      [users.map((row) => row.day), users.map((row) => row.integrationId), users.map((row) => row.partnerUserId)],
    );
  }
}

/**
 * The request log's rows in one INSERT. It is the one write per request, so the statement stays
 * plain (issue 26's bench: each per-row EXISTS probe and ON CONFLICT arbiter cost the database
 * microseconds on every request): the keys and organizations still there are looked up once per
 * batch, and the rows of the others dropped by a comparison with that short list. A batch put
 * back after a flush whose outcome was unknown (its commit may have landed) meets its own rows:
 * the unique violation sends it once more with ON CONFLICT DO NOTHING.
 */
async function writeLog(db: Database, rows: LogRow[]): Promise<void> {
  if (rows.length === 0) return;
  try {
    await insertLog(db, rows, "");
  } catch (error) {
    if (errorCode(error) !== UNIQUE_VIOLATION) throw error;
    await insertLog(db, rows, "ON CONFLICT (request_id) DO NOTHING");
  }
}

const UNIQUE_VIOLATION = "23505";

async function insertLog(db: Database, rows: LogRow[], onConflict: string): Promise<void> {
  const column = <K extends keyof LogRow>(name: K) => rows.map((row) => row[name]);
  const distinct = (name: "keyId" | "organizationId") => [
    ...new Set(rows.flatMap((row) => (row[name] === null ? [] : [row[name]]))),
  ];
  await db.sql.query(
    `WITH keys AS (SELECT array_agg(id) AS ids FROM api_keys WHERE id = ANY($13::text[])),
          orgs AS (SELECT array_agg(id) AS ids FROM organizations WHERE id = ANY($14::text[]))
     INSERT INTO request_log (request_id, at, organization_id, api_key_id, method, route, route_group, status, latency_ms, error_code, streamed, resource_id)
     SELECT r.request_id, to_timestamp(r.at / 1000.0), r.organization_id, r.api_key_id, r.method, r.route, r.route_group, r.status, r.latency_ms, r.error_code, r.streamed, r.resource_id
     FROM unnest($1::text[], $2::float8[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::text[], $11::boolean[], $12::text[])
       AS r(request_id, at, organization_id, api_key_id, method, route, route_group, status, latency_ms, error_code, streamed, resource_id),
       keys, orgs
     WHERE (r.api_key_id IS NULL OR r.api_key_id = ANY(keys.ids))
       AND (r.organization_id IS NULL OR r.organization_id = ANY(orgs.ids))
     ${onConflict}`,
    [
      column("requestId"),
      column("at"),
      column("organizationId"),
      column("keyId"),
      column("method"),
      column("route"),
      column("routeGroup"),
      column("status"),
      column("latencyMs"),
      column("errorCode"),
      column("streamed"),
      column("resourceId"),
      distinct("keyId"),
      distinct("organizationId"),
    ],
  );
}
