import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import {
  decodeCursor,
  decodeSortCursor,
  encodeSortCursor,
  keysetDirection,
  keysetPage,
  pageBothWays,
} from "../../paging/cursor";
import type { TotalOption } from "../../paging/total";
import type { ResolvedIntegration } from "../integrations/integrations";
import { toPartnerUser, USER_COLUMNS, USER_FROM, type PartnerUserRecord, type UserRow } from "./partner-user";
import type { UserSort, UserStatus } from "./partner-user-values";

/**
 * The filters of a user list ($1 the integration, $2–$6 the filters), shared by its page and its
 * count. Each filter has an index that serves it in page order ("Directory at scale" in
 * docs/architecture.md): the team is resolved to its id first, and `q` is a LIKE on the lowered
 * id so the trigram index applies.
 */
const USERS_MATCH = `u.integration_id = $1
         AND (CASE WHEN $2::text IS NULL THEN u.status <> 'deleted' ELSE u.status = $2 END)
         AND ($3::text IS NULL OR u.team_id = (SELECT id FROM partner_teams WHERE integration_id = $1 AND external_team_id = $3))
         AND ($4::text IS NULL OR u.external_user_id = $4)
         AND ($5::text IS NULL OR lower(u.external_user_id) LIKE '%' || $5 || '%')
         AND ($6::boolean IS NULL OR (u.team_id IS NULL) = $6)`;

/** `q` as a LIKE pattern's middle: lowered, its own `%`, `_` and `\` taken literally. */
function containsPattern(q: string): string {
  return q.toLowerCase().replace(/[\\%_]/g, "\\$&");
}

/**
 * The orders the staff console offers besides creation (the only one of /v1). Each is a key of
 * column expressions (with their types, for the keyset comparison) that ends in the row's id,
 * so it is total and a page never repeats or skips a row. Names sort case-blind, users
 * without a name last; a status sorts its users oldest first.
 */
const SORT_KEYS: Record<Exclude<UserSort, "created">, Array<{ expr: string; type: "text" | "int" | "timestamptz" }>> = {
  external_id: [{ expr: "u.external_user_id", type: "text" }],
  name: [
    { expr: "(u.name IS NULL)::int", type: "int" },
    { expr: "lower(coalesce(u.name, ''))", type: "text" },
  ],
  status: [
    { expr: "u.status", type: "text" },
    { expr: "u.created_at", type: "timestamptz" },
  ],
};

/** A user's contact details, for staff only (never on /v1). */
export interface UserContact {
  email: string;
  name: string | null;
}

export interface ListUsersFilters {
  teamExternalId?: string | undefined;
  externalUserId?: string | undefined;
  q?: string | undefined;
  unassigned?: boolean | undefined;
  status?: UserStatus | undefined;
}

export interface UserCounts {
  total: number;
  active: number;
  disabled: number;
  deleted: number;
  pending: number;
  failed: number;
}

/**
 * GET users (spec 4.10). Filters combine with AND; `q` (part of an external user id) may not
 * be combined with `external_user_id`, nor `unassigned` with `team_external_id`, and
 * neither id filter accepts an email address. Deleted users appear only with
 * `status=deleted`. `counts` covers the whole integration, not the filtered page; with
 * `withTotal` (the staff console's "1–25 of 30"), `total` counts what the filters match.
 */
export async function listPartnerUsers(
  db: Database,
  integration: ResolvedIntegration,
  input: ListUsersFilters & { limit: number; cursor?: string | undefined; sort?: UserSort | undefined } & TotalOption,
): Promise<{
  users: PartnerUserRecord[];
  contacts: Map<string, UserContact>;
  counts: UserCounts;
  nextCursor: string | null;
  previousCursor: string | null;
  total?: number;
}> {
  if (input.q !== undefined && input.externalUserId !== undefined)
    throw new AppError("invalid_request", "q: must not be combined with external_user_id");
  if (input.unassigned !== undefined && input.teamExternalId !== undefined)
    throw new AppError("invalid_request", "unassigned: must not be combined with team_external_id");
  for (const [field, value] of [
    ["q", input.q],
    ["external_user_id", input.externalUserId],
  ] as const) {
    if (value?.includes("@"))
      throw new AppError("invalid_request", `${field}: email searches are not accepted; search by external user id`, {
        field,
      });
  }
  const filters = {
    team: input.teamExternalId ?? null,
    user: input.externalUserId ?? null,
    q: input.q ?? null,
    unassigned: input.unassigned ?? null,
    status: input.status ?? null,
  };
  const sort = input.sort ?? "created";
  // Creation order keeps the filters (and so the cursors) /v1 has always issued.
  const cursorFilters = sort === "created" ? filters : { ...filters, sort };
  const matchParams = [
    integration.id,
    filters.status,
    filters.team,
    filters.user,
    filters.q === null ? null : containsPattern(filters.q),
    filters.unassigned,
  ];
  const ordered = orderedPage(db, sort, input.cursor, cursorFilters, matchParams.length);
  const counted = countedByCounts(filters);
  const [page, counts, matching] = await Promise.all([
    db.sql.query<UserRow & SortedRow & { contact_email: string; contact_name: string | null }>(
      `SELECT ${USER_COLUMNS}, u.email AS contact_email, u.name AS contact_name${ordered.select} FROM ${USER_FROM}
       WHERE ${USERS_MATCH}${ordered.after}
       ORDER BY ${ordered.orderBy} LIMIT $${matchParams.length + ordered.params.length + 1}`,
      [...matchParams, ...ordered.params, input.limit + 1],
    ),
    countPartnerUsers(db, integration.id),
    input.withTotal && !counted
      ? db.sql.query<{ total: number }>(
          `SELECT count(*)::int AS total FROM partner_users u WHERE ${USERS_MATCH}`,
          matchParams,
        )
      : undefined,
  ]);
  const { rows, nextCursor, previousCursor } = ordered.page(page.rows, input.limit);
  return {
    users: rows.map((row) => toPartnerUser(integration.slug, row)),
    contacts: new Map(rows.map((row) => [row.id, { email: row.contact_email, name: row.contact_name }])),
    counts,
    nextCursor,
    previousCursor,
    ...(input.withTotal ? { total: counted ? counts[counted] : (matching?.rows[0]?.total ?? 0) } : {}),
  };
}

interface SortedRow {
  sort_key?: string[];
}

/**
 * The SQL of one order: its extra select (the sort key as text, for the next cursor), its
 * keyset condition after the cursor's row (parameters numbered after the filters'), its ORDER
 * BY, and how a page and its cursor are cut from the rows.
 */
function orderedPage(db: Database, sort: UserSort, cursor: string | undefined, filters: unknown, paramsBefore: number) {
  if (sort === "created") {
    const from = decodeCursor(db.secrets, cursor, filters);
    const way = keysetDirection(from, "asc");
    return {
      select: "",
      after: from
        ? ` AND (u.created_at, u.id) ${way.comparison} ($${paramsBefore + 1}::timestamptz, $${paramsBefore + 2}::text)`
        : "",
      params: from ? [from.createdAt, from.id] : [],
      orderBy: `u.created_at ${way.order}, u.id ${way.order}`,
      page: <Row extends UserRow>(rows: Row[], limit: number) => keysetPage(db.secrets, rows, limit, filters, from),
    };
  }
  const keys = SORT_KEYS[sort];
  const from = decodeSortCursor(db.secrets, cursor, filters, keys.length);
  const way = keysetDirection(from, "asc");
  const placeholders = keys.map((key, index) => `$${paramsBefore + index + 1}::${key.type}`);
  return {
    select: `, ARRAY[${keys.map((key) => `(${key.expr})::text`).join(", ")}] AS sort_key`,
    after: from
      ? ` AND (${keys.map((key) => key.expr).join(", ")}, u.id) ${way.comparison} (${placeholders.join(", ")}, $${paramsBefore + keys.length + 1}::text)`
      : "",
    params: from ? [...from.values, from.id] : [],
    orderBy: [...keys.map((key) => key.expr), "u.id"].map((expr) => `${expr} ${way.order}`).join(", "),
    page: <Row extends UserRow & SortedRow>(rows: Row[], limit: number) =>
      pageBothWays(rows, limit, from, (row, backward) =>
        encodeSortCursor(db.secrets, row.sort_key ?? [], row.id, filters, backward),
      ),
  };
}

/** A total the counts already hold: no filter, or a status alone. */
function countedByCounts(filters: {
  team: string | null;
  user: string | null;
  q: string | null;
  unassigned: boolean | null;
  status: UserStatus | null;
}): keyof UserCounts | undefined {
  if (filters.team !== null || filters.user !== null || filters.q !== null || filters.unassigned !== null)
    return undefined;
  return filters.status ?? "total";
}

/** Appended changes folded into one row once there are more than this (a read then sums a few rows). */
const FOLD_AFTER = 32;

/**
 * Spec 4.10's counts: the whole integration, whatever a list's filters (deleted users are
 * counted apart and excluded from the others). Read on their own too, so a page whose filter
 * is refused still shows them. They are the sum of the changes triggers on partner_users append
 * (partner_user_count_deltas, "Directory at scale" in docs/architecture.md), so reading them
 * costs a few rows whatever the integration's size; a read that finds many folds them into one.
 */
export async function countPartnerUsers(db: Database, integrationId: string): Promise<UserCounts> {
  const { rows } = await db.sql.query<UserCounts & { parts: number }>(
    `SELECT coalesce(sum(total), 0)::int AS total, coalesce(sum(active), 0)::int AS active, coalesce(sum(disabled), 0)::int AS disabled,
            coalesce(sum(deleted), 0)::int AS deleted, coalesce(sum(pending), 0)::int AS pending, coalesce(sum(failed), 0)::int AS failed,
            count(*)::int AS parts
     FROM partner_user_count_deltas WHERE integration_id = $1`,
    [integrationId],
  );
  const { parts, ...counts } = rows[0] as UserCounts & { parts: number };
  if (parts > FOLD_AFTER) await foldCountChanges(db, integrationId);
  return counts;
}

/**
 * Replaces an integration's appended changes by their sum, in one statement: the rows it deletes
 * are exactly the ones it sums, so a change committed meanwhile (not seen, so not deleted) stays,
 * and a concurrent fold skips the rows this one took. The sum never moves.
 */
async function foldCountChanges(db: Database, integrationId: string): Promise<void> {
  await db.sql.query(
    `WITH folded AS (DELETE FROM partner_user_count_deltas WHERE integration_id = $1 RETURNING *)
     INSERT INTO partner_user_count_deltas (integration_id, total, active, disabled, deleted, pending, failed)
     SELECT $1, sum(total), sum(active), sum(disabled), sum(deleted), sum(pending), sum(failed) FROM folded HAVING count(*) > 0`,
    [integrationId],
  );
}
