import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import type { ResolvedIntegration } from "../integrations/integrations";
import { decodeCursor, keysetDirection, keysetPage } from "../../paging/cursor";
import { type PartnerUserRecord, toPartnerUser, USER_COLUMNS, USER_FROM, type UserRow } from "./partner-user";
import type { UserStatus } from "./partner-user-values";

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
  input: ListUsersFilters & { limit: number; cursor?: string | undefined; withTotal?: boolean },
): Promise<{ users: PartnerUserRecord[]; counts: UserCounts; nextCursor: string | null; previousCursor: string | null; total?: number }> {
  if (input.q !== undefined && input.externalUserId !== undefined) throw new AppError("invalid_request", "q: must not be combined with external_user_id");
  if (input.unassigned !== undefined && input.teamExternalId !== undefined) throw new AppError("invalid_request", "unassigned: must not be combined with team_external_id");
  for (const [field, value] of [
    ["q", input.q],
    ["external_user_id", input.externalUserId],
  ] as const) {
    if (value?.includes("@")) throw new AppError("invalid_request", `${field}: email searches are not accepted; search by external user id`, { field });
  }
  const filters = {
    team: input.teamExternalId ?? null,
    user: input.externalUserId ?? null,
    q: input.q ?? null,
    unassigned: input.unassigned ?? null,
    status: input.status ?? null,
  };
  const from = decodeCursor(db.secrets, input.cursor, filters);
  const way = keysetDirection(from, "asc");
  const matchParams = [integration.id, filters.status, filters.team, filters.user, filters.q === null ? null : containsPattern(filters.q), filters.unassigned];
  const counted = countedByCounts(filters);
  const [page, counts, matching] = await Promise.all([
    db.sql.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM ${USER_FROM}
       WHERE ${USERS_MATCH}
         AND ($7::timestamptz IS NULL OR (u.created_at, u.id) ${way.comparison} ($7::timestamptz, $8::text))
       ORDER BY u.created_at ${way.order}, u.id ${way.order} LIMIT $9`,
      [...matchParams, from?.createdAt ?? null, from?.id ?? "", input.limit + 1],
    ),
    countPartnerUsers(db, integration.id),
    input.withTotal && !counted ? db.sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM partner_users u WHERE ${USERS_MATCH}`, matchParams) : undefined,
  ]);
  const { rows, nextCursor, previousCursor } = keysetPage(db.secrets, page.rows, input.limit, filters, from);
  return {
    users: rows.map((row) => toPartnerUser(integration.slug, row)),
    counts,
    nextCursor,
    previousCursor,
    ...(input.withTotal ? { total: counted ? counts[counted] : (matching?.rows[0]?.total ?? 0) } : {}),
  };
}

/** A total the counts already hold: no filter, or a status alone. */
function countedByCounts(filters: { team: string | null; user: string | null; q: string | null; unassigned: boolean | null; status: UserStatus | null }): keyof UserCounts | undefined {
  if (filters.team !== null || filters.user !== null || filters.q !== null || filters.unassigned !== null) return undefined;
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
