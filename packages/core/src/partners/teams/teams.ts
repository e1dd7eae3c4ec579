import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import { decodeCursor, keysetDirection, keysetPage } from "../../paging/cursor";
import { totalWhenAsked, type TotalOption } from "../../paging/total";
import type { ResolvedIntegration } from "../integrations/integrations";
import type { TeamStatus } from "./team-status";

export interface TeamRecord {
  id: string;
  integration: string;
  externalTeamId: string;
  name: string;
  status: TeamStatus;
  /** Users currently assigned (or queued: provisioning pending), deleted users excluded. */
  userCount: number;
  createdAt: Date;
  updatedAt: Date;
}

const TEAM_COLUMNS = `t.id, t.external_team_id, t.name, t.status, t.created_at, t.updated_at,
  (SELECT count(*)::int FROM partner_users u WHERE u.team_id = t.id AND u.status <> 'deleted') AS user_count`;

interface TeamRow {
  id: string;
  external_team_id: string;
  name: string;
  status: TeamStatus;
  created_at: Date;
  updated_at: Date;
  user_count: number;
}

function toTeam(integration: ResolvedIntegration, row: TeamRow): TeamRecord {
  return {
    id: row.id,
    integration: integration.slug,
    externalTeamId: row.external_team_id,
    name: row.name,
    status: row.status,
    userCount: row.user_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function getTeam(
  db: Database,
  integration: ResolvedIntegration,
  externalTeamId: string,
): Promise<TeamRecord> {
  const { rows } = await db.sql.query<TeamRow>(
    `SELECT ${TEAM_COLUMNS} FROM partner_teams t WHERE t.integration_id = $1 AND t.external_team_id = $2`,
    [integration.id, externalTeamId],
  );
  if (!rows[0]) throw new AppError("not_found", `team ${externalTeamId} not found`);
  return toTeam(integration, rows[0]);
}

/** PUT: creates the team (active, no users) or renames it; its status is changed only by PATCH. */
export async function putTeam(
  db: Database,
  integration: ResolvedIntegration,
  externalTeamId: string,
  input: { name: string },
): Promise<{ team: TeamRecord; created: boolean }> {
  const { rows } = await db.sql.query<{ created: boolean }>(
    `INSERT INTO partner_teams (id, integration_id, external_team_id, name, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'active', now(), now())
     ON CONFLICT (integration_id, external_team_id) DO UPDATE
       SET name = EXCLUDED.name, updated_at = CASE WHEN partner_teams.name = EXCLUDED.name THEN partner_teams.updated_at ELSE now() END
     RETURNING (xmax = 0) AS created`,
    [newId("team"), integration.id, externalTeamId, input.name],
  );
  return { team: await getTeam(db, integration, externalTeamId), created: rows[0]?.created === true };
}

/**
 * PATCH: rename and/or archive or reactivate. Archiving a team that still has users
 * (current or queued) is 409 team_in_use; the check and the update are one statement.
 */
export async function patchTeam(
  db: Database,
  integration: ResolvedIntegration,
  externalTeamId: string,
  input: { name?: string | undefined; status?: TeamStatus | undefined },
): Promise<TeamRecord> {
  const current = await getTeam(db, integration, externalTeamId);
  const { rowCount } = await db.sql.query(
    `UPDATE partner_teams t SET name = COALESCE($3, t.name), status = COALESCE($4, t.status), updated_at = now()
     WHERE t.integration_id = $1 AND t.external_team_id = $2
       AND ($4::text IS DISTINCT FROM 'archived'
            OR NOT EXISTS (SELECT 1 FROM partner_users u WHERE u.team_id = t.id AND u.status <> 'deleted'))`,
    [integration.id, externalTeamId, input.name ?? null, input.status ?? null],
  );
  if (rowCount === 0) {
    throw new AppError(
      "team_in_use",
      `team ${externalTeamId} has ${current.userCount} assigned user(s); reassign them before archiving`,
    );
  }
  return getTeam(db, integration, externalTeamId);
}

/** A team list's filters ($1 the integration, $2 status, $3 part of the external id or name), shared by its page and its count. */
const TEAMS_MATCH = `t.integration_id = $1 AND ($2::text IS NULL OR t.status = $2)
       AND ($3::text IS NULL OR strpos(lower(t.external_team_id), lower($3)) > 0 OR strpos(lower(t.name), lower($3)) > 0)`;

export async function listTeams(
  db: Database,
  integration: ResolvedIntegration,
  input: {
    status?: TeamStatus | undefined;
    q?: string | undefined;
    limit: number;
    cursor?: string | undefined;
  } & TotalOption,
): Promise<{ teams: TeamRecord[]; nextCursor: string | null; previousCursor: string | null; total?: number }> {
  // `q` (part of the external id or the name, any case) is the staff console's search.
  const filters = { status: input.status ?? null, q: input.q?.trim() || null };
  const from = decodeCursor(db.secrets, input.cursor, filters);
  const way = keysetDirection(from, "asc");
  const { rows } = await db.sql.query<TeamRow>(
    `SELECT ${TEAM_COLUMNS} FROM partner_teams t
     WHERE ${TEAMS_MATCH}
       AND ($4::timestamptz IS NULL OR (t.created_at, t.id) ${way.comparison} ($4::timestamptz, $5::text))
     ORDER BY t.created_at ${way.order}, t.id ${way.order} LIMIT $6`,
    [integration.id, filters.status, filters.q, from?.createdAt ?? null, from?.id ?? "", input.limit + 1],
  );
  // The staff console's "1–50 of 60"; the partner API has no use for it.
  const counted = await totalWhenAsked(
    db,
    input,
    `SELECT count(*)::int AS total FROM partner_teams t WHERE ${TEAMS_MATCH}`,
    [integration.id, filters.status, filters.q],
  );
  const page = keysetPage(db.secrets, rows, input.limit, filters, from);
  return {
    teams: page.rows.map((row) => toTeam(integration, row)),
    nextCursor: page.nextCursor,
    previousCursor: page.previousCursor,
    ...counted,
  };
}
