import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { MIN_USAGE_RETENTION_DAYS, USAGE_STATUS_CLASSES, utcDay, type UsageStatusClass } from "./usage-values";

/** The longest range one usage read covers: everything usage keeps. */
export const MAX_USAGE_RANGE_DAYS = MIN_USAGE_RETENTION_DAYS;

export interface UsageCounts {
  requests: number;
  streamedAnswers: number;
  jsonAnswers: number;
  tokensUsed: number;
  upstreamErrors: number;
  rateLimited: number;
  byRouteGroup: Record<string, number>;
  byStatusClass: Record<UsageStatusClass, number>;
}

export interface UsageDay extends UsageCounts {
  /** The UTC day, YYYY-MM-DD. */
  date: string;
}

export interface IntegrationUsageDay {
  date: string;
  launches: number;
  activeUsers: number;
}

export interface IntegrationUsage {
  integrationId: string;
  slug: string;
  launches: number;
  /** Distinct partner users launched over the whole range. */
  activeUsers: number;
  days: IntegrationUsageDay[];
}

export interface UsageReport {
  from: string;
  to: string;
  /** Every day of the range, oldest first, days without a request at zero. */
  days: UsageDay[];
  totals: UsageCounts;
  /** Per integration of the organization (an organization's report only). */
  integrations: IntegrationUsage[];
}

export interface UsageRange {
  /** First UTC day, YYYY-MM-DD, inclusive. */
  from: string;
  /** Last UTC day, inclusive. */
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The range a read asks for, checked: real calendar days, `from` ≤ `to`, at most
 * MAX_USAGE_RANGE_DAYS days. Without `from`/`to`: the last `days` days up to today (UTC).
 */
export function usageRange(
  input: { from?: string | undefined; to?: string | undefined; days?: number | undefined },
  now = new Date(),
): UsageRange {
  const to = input.to ?? utcDay(now);
  checkDay("to", to);
  const from = input.from ?? addDays(to, -((input.days ?? 30) - 1));
  checkDay("from", from);
  if (from > to) throw new AppError("invalid_request", "from: after to", { field: "from" });
  if (dayCount(from, to) > MAX_USAGE_RANGE_DAYS)
    throw new AppError("invalid_request", `from: the range is longer than ${MAX_USAGE_RANGE_DAYS} days`, {
      field: "from",
    });
  return { from, to };
}

function checkDay(field: "from" | "to", value: string): void {
  if (
    !DAY.test(value) ||
    Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ||
    utcDay(new Date(`${value}T00:00:00Z`)) !== value
  ) {
    throw new AppError("invalid_request", `${field}: not a date (YYYY-MM-DD)`, { field });
  }
}

const zero = (): UsageCounts => ({
  requests: 0,
  streamedAnswers: 0,
  jsonAnswers: 0,
  tokensUsed: 0,
  upstreamErrors: 0,
  rateLimited: 0,
  byRouteGroup: {},
  byStatusClass: Object.fromEntries(USAGE_STATUS_CLASSES.map((name) => [name, 0])) as Record<UsageStatusClass, number>,
});

interface UsageRow {
  day: string;
  routeGroup: string;
  statusClass: UsageStatusClass;
  requests: string;
  streamedAnswers: string;
  jsonAnswers: string;
  tokensUsed: string;
  upstreamErrors: string;
  rateLimited: string;
}

/**
 * An organization's usage (or one of its keys'), per UTC day. The key filter is always
 * combined with the organization, so a key id of another organization reads nothing.
 */
export async function readUsage(
  db: Database,
  input: UsageRange & { organizationId: string; apiKeyId?: string | undefined },
): Promise<UsageReport> {
  const { rows } = await db.sql.query<UsageRow>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, route_group AS "routeGroup", status_class AS "statusClass",
            sum(requests) AS requests, sum(streamed_answers) AS "streamedAnswers", sum(json_answers) AS "jsonAnswers",
            sum(tokens_used) AS "tokensUsed", sum(upstream_errors) AS "upstreamErrors", sum(rate_limited) AS "rateLimited"
     FROM usage_daily
     WHERE organization_id = $1 AND ($2::text IS NULL OR api_key_id = $2) AND day BETWEEN $3::date AND $4::date
     GROUP BY day, route_group, status_class`,
    [input.organizationId, input.apiKeyId ?? null, input.from, input.to],
  );
  const days = new Map<string, UsageDay>();
  for (const date of eachDay(input.from, input.to)) days.set(date, { date, ...zero() });
  const totals = zero();
  for (const row of rows) {
    const day = days.get(row.day);
    if (!day) continue;
    for (const counts of [day, totals]) add(counts, row);
  }
  const integrations = input.apiKeyId ? [] : await readIntegrationUsage(db, input);
  return { from: input.from, to: input.to, days: [...days.values()], totals, integrations };
}

function add(counts: UsageCounts, row: UsageRow): void {
  const requests = Number(row.requests);
  counts.requests += requests;
  counts.streamedAnswers += Number(row.streamedAnswers);
  counts.jsonAnswers += Number(row.jsonAnswers);
  counts.tokensUsed += Number(row.tokensUsed);
  counts.upstreamErrors += Number(row.upstreamErrors);
  counts.rateLimited += Number(row.rateLimited);
  counts.byRouteGroup[row.routeGroup] = (counts.byRouteGroup[row.routeGroup] ?? 0) + requests;
  counts.byStatusClass[row.statusClass] += requests;
}

async function readIntegrationUsage(
  db: Database,
  input: UsageRange & { organizationId: string },
): Promise<IntegrationUsage[]> {
  const { rows } = await db.sql.query<{
    id: string;
    slug: string;
    day: string | null;
    launches: string | null;
    activeUsers: string | null;
    activeTotal: string;
  }>(
    `SELECT i.id, i.slug, to_char(u.day, 'YYYY-MM-DD') AS day, u.launches,
            (SELECT count(*) FROM integration_active_users a WHERE a.integration_id = i.id AND a.day = u.day) AS "activeUsers",
            (SELECT count(DISTINCT a.partner_user_id) FROM integration_active_users a WHERE a.integration_id = i.id AND a.day BETWEEN $2::date AND $3::date) AS "activeTotal"
     FROM integrations i
     LEFT JOIN integration_usage_daily u ON u.integration_id = i.id AND u.day BETWEEN $2::date AND $3::date
     WHERE i.organization_id = $1
     ORDER BY i.slug, u.day`,
    [input.organizationId, input.from, input.to],
  );
  const byId = new Map<string, IntegrationUsage>();
  for (const row of rows) {
    let integration = byId.get(row.id);
    if (!integration) {
      integration = {
        integrationId: row.id,
        slug: row.slug,
        launches: 0,
        activeUsers: Number(row.activeTotal),
        days: [],
      };
      byId.set(row.id, integration);
    }
    if (row.day === null) continue;
    const launches = Number(row.launches ?? 0);
    integration.launches += launches;
    integration.days.push({ date: row.day, launches, activeUsers: Number(row.activeUsers ?? 0) });
  }
  return [...byId.values()];
}

export interface OrganizationUsage {
  organizationId: string;
  name: string;
  requests: number;
  answers: number;
  tokensUsed: number;
  upstreamErrors: number;
  rateLimited: number;
}

/** Every organization with its usage over the range, the busiest first (then by name). */
export async function usageOverview(db: Database, range: UsageRange): Promise<OrganizationUsage[]> {
  const { rows } = await db.sql.query<{
    id: string;
    name: string;
    requests: string;
    answers: string;
    tokensUsed: string;
    upstreamErrors: string;
    rateLimited: string;
  }>(
    `SELECT o.id, o.name,
            coalesce(sum(u.requests), 0) AS requests, coalesce(sum(u.streamed_answers + u.json_answers), 0) AS answers,
            coalesce(sum(u.tokens_used), 0) AS "tokensUsed", coalesce(sum(u.upstream_errors), 0) AS "upstreamErrors",
            coalesce(sum(u.rate_limited), 0) AS "rateLimited"
     FROM organizations o
     LEFT JOIN usage_daily u ON u.organization_id = o.id AND u.day BETWEEN $1::date AND $2::date
     GROUP BY o.id, o.name
     ORDER BY requests DESC, o.name, o.id`,
    [range.from, range.to],
  );
  return rows.map((row) => ({
    organizationId: row.id,
    name: row.name,
    requests: Number(row.requests),
    answers: Number(row.answers),
    tokensUsed: Number(row.tokensUsed),
    upstreamErrors: Number(row.upstreamErrors),
    rateLimited: Number(row.rateLimited),
  }));
}

function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
}

function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

function* eachDay(from: string, to: string): Generator<string> {
  for (let day = from; day <= to; day = addDays(day, 1)) yield day;
}
