import type { Database } from "../../db/database";
import { withTransaction } from "../../db/transaction";
import { AppError, isAppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import { normalizeEmail } from "../../shared/email";
import { forEachConcurrently } from "../../shared/for-each-concurrently";
import type { ResolvedIntegration } from "../integrations/integrations";
import { completeProvisioning } from "../users/complete-provisioning";
import type { DirectoryDeps } from "../users/directory-deps";
import { emailTakenError, findEmailHolders } from "../users/one-user-per-email";
import { provisionPartnerUser } from "../users/provision-user";
import { retryProvisioningLater } from "../users/provisioning-job";
import { assertMatchesExistingUser, assignableTeamId, teamChange } from "../users/provisioning-rules";
import { STORED_USER_COLUMNS, type StoredUser } from "../users/stored-user";
import type { RowOutcome } from "./import-values";

/**
 * An import's rows, a chunk at a time (docs/architecture.md, "Directory at scale"). One
 * transaction per chunk reads what the rows depend on (teams, existing users, email holders)
 * in a few statements, decides each row with PUT user's own rules (provisioning-rules.ts,
 * one-user-per-email.ts), inserts the new users and moves assignments in one statement each,
 * and stores every row's outcome: a committed chunk is never decided again. Then each
 * decided user's provisioning is completed through the site-account and chat ports, the
 * same function PUT user uses; a row that cannot finish becomes `pending` and is retried in
 * the background, as with PUT. When the database refuses what the chunk's reads allowed (a
 * concurrent writer), the chunk rolls back and its rows go through PUT user's path one by one.
 */
export const ROW_CONCURRENCY = 4;

export interface ImportRow {
  position: number;
  external_user_id: string;
  email: string;
  name: string | null;
  team_external_id: string | null;
  team_given: boolean;
}

interface RowResult {
  position: number;
  outcome: RowOutcome;
  code: string | null;
  message: string | null;
}

/** A decided row whose provisioning is completed after its chunk commits. */
export interface RowToComplete {
  position: number;
  externalUserId: string;
  outcome: "created" | "existing";
  /** The stored user as the chunk created it; absent for a matched user (read again when completed). */
  created?: StoredUser;
}

/** The database refused what the chunk's own reads allowed: someone wrote meanwhile. */
class ChunkRaced extends Error {}

/** Integrity (23…) and serialization or deadlock (40…) refusals: rules only the database could check. */
function refusedByDatabase(error: unknown): boolean {
  if (error instanceof ChunkRaced) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^(23|40)/.test(code);
}

export async function importChunk(
  deps: DirectoryDeps,
  integration: ResolvedIntegration,
  jobId: string,
  rows: ImportRow[],
): Promise<void> {
  let decided: RowToComplete[];
  try {
    decided = await withTransaction(deps.db, (tx) => decideChunk(tx, integration, jobId, rows));
  } catch (error) {
    if (!refusedByDatabase(error)) throw error;
    deps.log?.("import chunk refused by the database; its rows are provisioned one by one", {
      import_id: jobId,
      error: String(error),
    });
    await importRowByRow(deps, integration, jobId, rows);
    return;
  }
  await completeRows(deps, integration, jobId, decided);
}

async function decideChunk(
  tx: Database,
  integration: ResolvedIntegration,
  jobId: string,
  rows: ImportRow[],
): Promise<RowToComplete[]> {
  const teamIds = [
    ...new Set(rows.flatMap((row) => (row.team_given && row.team_external_id ? [row.team_external_id] : []))),
  ];
  const teams = new Map<string, { id: string; status: string }>();
  if (teamIds.length) {
    const found = await tx.sql.query<{ external_team_id: string; id: string; status: string }>(
      "SELECT external_team_id, id, status FROM partner_teams WHERE integration_id = $1 AND external_team_id = ANY($2::text[])",
      [integration.id, teamIds],
    );
    for (const team of found.rows) teams.set(team.external_team_id, team);
  }
  const known = await tx.sql.query<StoredUser & { external_user_id: string }>(
    `SELECT external_user_id, ${STORED_USER_COLUMNS} FROM partner_users WHERE integration_id = $1 AND external_user_id = ANY($2::text[])`,
    [integration.id, rows.map((row) => row.external_user_id)],
  );
  const existing = new Map(known.rows.map((user) => [user.external_user_id, user]));

  // The rules in PUT user's order: the team first, then the existing user's match or the new user's email.
  const results: RowResult[] = [];
  const failed = (row: ImportRow, error: AppError) =>
    results.push({ position: row.position, outcome: "failed", code: error.code, message: error.message });
  const claims: Array<{ row: ImportRow; email: string; teamId: string | null }> = [];
  const matched: Array<{ row: ImportRow; user: StoredUser; newTeam: string | null | undefined }> = [];
  for (const row of rows) {
    const email = normalizeEmail(row.email);
    try {
      const teamId = !row.team_given
        ? undefined
        : row.team_external_id
          ? assignableTeamId(row.team_external_id, teams.get(row.team_external_id))
          : null;
      const user = existing.get(row.external_user_id);
      if (user) {
        assertMatchesExistingUser(row.external_user_id, user, email);
        matched.push({ row, user, newTeam: teamChange(teamId, user.team_id) });
      } else {
        claims.push({ row, email, teamId: teamId ?? null });
      }
    } catch (error) {
      if (!isAppError(error)) throw error;
      failed(row, error);
    }
  }

  const holders = await findEmailHolders(
    tx,
    integration.id,
    claims.map((claim) => ({ email: claim.email, externalUserId: claim.row.external_user_id })),
  );
  // A new user of an earlier row of this chunk holds its email for the later rows, as it would once stored.
  const claimedInChunk = new Map<string, string>();
  const creates: typeof claims = [];
  claims.forEach((claim, i) => {
    const earlier = claimedInChunk.get(claim.email);
    const holder = holders[i] ?? (earlier ? { externalUserId: earlier, changing: false } : undefined);
    if (holder) return failed(claim.row, emailTakenError(holder));
    claimedInChunk.set(claim.email, claim.row.external_user_id);
    creates.push(claim);
  });

  // In external id order, so two chunks inserting the same ids never wait on each other in a cycle.
  creates.sort((a, b) => (a.row.external_user_id < b.row.external_user_id ? -1 : 1));
  const inserted = creates.length
    ? await tx.sql.query<StoredUser & { external_user_id: string }>(
        `INSERT INTO partner_users (id, integration_id, external_user_id, email, name, team_id, status, provisioning_status, mapping_status, created_at, updated_at)
         SELECT n.id, $1, n.external_user_id, n.email, n.name, n.team_id, 'active', 'pending', 'pending', now(), now()
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS n(id, external_user_id, email, name, team_id, ord)
         ORDER BY n.ord
         ON CONFLICT (integration_id, external_user_id) DO NOTHING
         RETURNING external_user_id, ${STORED_USER_COLUMNS}`,
        [
          integration.id,
          creates.map(() => newId("pu")),
          creates.map((claim) => claim.row.external_user_id),
          creates.map((claim) => claim.email),
          creates.map((claim) => claim.row.name),
          creates.map((claim) => claim.teamId),
        ],
      )
    : { rows: [] };
  if (inserted.rows.length !== creates.length) throw new ChunkRaced("a user of this chunk was created meanwhile");

  const moves = matched.filter((match) => match.newTeam !== undefined);
  if (moves.length) {
    const moved = await tx.sql.query(
      `UPDATE partner_users u SET team_id = m.team_id, assignment_version = u.assignment_version + 1, updated_at = now()
       FROM unnest($1::text[], $2::text[]) AS m(id, team_id) WHERE u.id = m.id`,
      [moves.map((move) => move.user.id), moves.map((move) => move.newTeam ?? null)],
    );
    if (moved.rowCount !== moves.length) throw new ChunkRaced("a user of this chunk is gone");
  }

  const decided: RowToComplete[] = [
    ...inserted.rows.map((user): RowToComplete => {
      const position =
        creates.find((claim) => claim.row.external_user_id === user.external_user_id)?.row.position ?? -1;
      return { position, externalUserId: user.external_user_id, outcome: "created", created: user };
    }),
    ...matched.map((match): RowToComplete => ({
      position: match.row.position,
      externalUserId: match.row.external_user_id,
      outcome: "existing",
    })),
  ];
  for (const row of decided) results.push({ position: row.position, outcome: row.outcome, code: null, message: null });
  await storeOutcomes(tx, jobId, results);
  // A matched user already provisioned has nothing left to complete.
  return decided.filter((row) => row.created || existing.get(row.externalUserId)?.provisioning_status !== "active");
}

/** Completes the decided rows' provisioning; the rows that cannot finish yet become `pending` (PUT user's 202). */
export async function completeRows(
  deps: DirectoryDeps,
  integration: ResolvedIntegration,
  jobId: string,
  rows: RowToComplete[],
): Promise<void> {
  const matched = rows.filter((row) => !row.created).map((row) => row.externalUserId);
  const stored = new Map<string, StoredUser>();
  if (matched.length) {
    const found = await deps.db.sql.query<StoredUser & { external_user_id: string }>(
      `SELECT external_user_id, ${STORED_USER_COLUMNS} FROM partner_users WHERE integration_id = $1 AND external_user_id = ANY($2::text[])`,
      [integration.id, matched],
    );
    for (const user of found.rows) stored.set(user.external_user_id, user);
  }
  const users = rows.map((row) => {
    const user = row.created ?? stored.get(row.externalUserId);
    // Gone meanwhile (as readStoredUser would say): the attempt fails and is retried.
    if (!user) throw new AppError("not_found", "this record no longer exists");
    return user;
  });
  const provisioned = await completeProvisioning(deps, users, { concurrency: ROW_CONCURRENCY });
  const pending: RowResult[] = [];
  for (const [i, row] of rows.entries()) {
    if (provisioned[i]) continue;
    await retryProvisioningLater(deps, integration, row.externalUserId);
    pending.push({ position: row.position, outcome: "pending", code: null, message: null });
  }
  await storeOutcomes(deps.db, jobId, pending);
}

/** The chunk through PUT user's own path, row by row: a domain refusal is that row's failure, not the job's. */
async function importRowByRow(
  deps: DirectoryDeps,
  integration: ResolvedIntegration,
  jobId: string,
  rows: ImportRow[],
): Promise<void> {
  await forEachConcurrently(rows, ROW_CONCURRENCY, async (row) => {
    let result: RowResult;
    try {
      const { outcome } = await provisionPartnerUser(deps, integration, row.external_user_id, {
        email: row.email,
        name: row.name ?? undefined,
        teamExternalId: row.team_given ? row.team_external_id : undefined,
      });
      result = { position: row.position, outcome, code: null, message: null };
    } catch (error) {
      if (!isAppError(error)) throw error;
      result = { position: row.position, outcome: "failed", code: error.code, message: error.message };
    }
    await storeOutcomes(deps.db, jobId, [result]);
  });
}

async function storeOutcomes(db: Database, jobId: string, results: RowResult[]): Promise<void> {
  if (results.length === 0) return;
  await db.sql.query(
    `UPDATE import_job_rows r SET outcome = o.outcome, error_code = o.code, error_message = o.message
     FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS o(position, outcome, code, message)
     WHERE r.job_id = $1 AND r.position = o.position`,
    [
      jobId,
      results.map((r) => r.position),
      results.map((r) => r.outcome),
      results.map((r) => r.code),
      results.map((r) => r.message),
    ],
  );
}
