import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import type { ResolvedIntegration } from "../integrations/integrations";
import { decodeCursor, keysetPage } from "../../paging/cursor";
import { type PartnerUserRecord, toPartnerUser, USER_COLUMNS, USER_FROM, type UserRow } from "./partner-user";
import type { UserStatus } from "./partner-user-values";

/** The filters of a user list ($1 the integration, $2–$6 the filters), shared by its page and its count. */
const USERS_MATCH = `u.integration_id = $1
         AND (CASE WHEN $2::text IS NULL THEN u.status <> 'deleted' ELSE u.status = $2 END)
         AND ($3::text IS NULL OR t.external_team_id = $3)
         AND ($4::text IS NULL OR u.external_user_id = $4)
         AND ($5::text IS NULL OR strpos(lower(u.external_user_id), lower($5)) > 0)
         AND ($6::boolean IS NULL OR (u.team_id IS NULL) = $6)`;

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
): Promise<{ users: PartnerUserRecord[]; counts: UserCounts; nextCursor: string | null; total?: number }> {
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
  const after = decodeCursor(db.secrets, input.cursor, filters);
  const matchParams = [integration.id, filters.status, filters.team, filters.user, filters.q, filters.unassigned];
  const [page, counts, matching] = await Promise.all([
    db.sql.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM ${USER_FROM}
       WHERE ${USERS_MATCH}
         AND ($7::timestamptz IS NULL OR (u.created_at, u.id) > ($7::timestamptz, $8::text))
       ORDER BY u.created_at, u.id LIMIT $9`,
      [...matchParams, after?.createdAt ?? null, after?.id ?? "", input.limit + 1],
    ),
    countPartnerUsers(db, integration.id),
    input.withTotal ? db.sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${USER_FROM} WHERE ${USERS_MATCH}`, matchParams) : undefined,
  ]);
  const { rows, nextCursor } = keysetPage(db.secrets, page.rows, input.limit, filters);
  return {
    users: rows.map((row) => toPartnerUser(integration.slug, row)),
    counts,
    nextCursor,
    ...(matching ? { total: matching.rows[0]?.total ?? 0 } : {}),
  };
}

/**
 * Spec 4.10's counts: the whole integration, whatever a list's filters (deleted users are
 * counted apart and excluded from the others). Read on their own too, so a page whose filter
 * is refused still shows them.
 */
export async function countPartnerUsers(db: Database, integrationId: string): Promise<UserCounts> {
  const { rows } = await db.sql.query<UserCounts>(
    `SELECT count(*) FILTER (WHERE status <> 'deleted')::int AS total,
            count(*) FILTER (WHERE status = 'active')::int AS active,
            count(*) FILTER (WHERE status = 'disabled')::int AS disabled,
            count(*) FILTER (WHERE status = 'deleted')::int AS deleted,
            count(*) FILTER (WHERE status <> 'deleted' AND provisioning_status = 'pending')::int AS pending,
            count(*) FILTER (WHERE status <> 'deleted' AND provisioning_status = 'failed')::int AS failed
     FROM partner_users WHERE integration_id = $1`,
    [integrationId],
  );
  return rows[0] as UserCounts;
}
