import { recordAudit } from "../../audit/audit-log";
import type { AuditActor } from "../../audit/audited-change";
import type { Database } from "../../db/database";
import { withTransaction } from "../../db/transaction";
import { newId } from "../../ids/new-id";
import { checkedEmail } from "../../shared/email";
import type { ResolvedIntegration } from "../integrations/integrations";
import { completeProvisioning } from "./complete-provisioning";
import type { DirectoryDeps } from "./directory-deps";
import { getPartnerUser } from "./get-user";
import { claimEmailInIntegration } from "./one-user-per-email";
import type { PartnerUserRecord } from "./partner-user";
import { retryProvisioningLater } from "./provisioning-job";
import { assertMatchesExistingUser, assignableTeamId, teamChange } from "./provisioning-rules";
import { readStoredUser } from "./stored-user";

/** The team a request assigns (provisioning-rules.ts). */
async function resolveAssignableTeam(
  db: Database,
  integration: ResolvedIntegration,
  externalTeamId: string,
): Promise<string> {
  const { rows } = await db.sql.query<{ id: string; status: string }>(
    "SELECT id, status FROM partner_teams WHERE integration_id = $1 AND external_team_id = $2",
    [integration.id, externalTeamId],
  );
  return assignableTeamId(externalTeamId, rows[0]);
}

export type ProvisionOutcome = "created" | "existing" | "pending";

/**
 * PUT user (spec 3.1, 4.10): creates and provisions a new user, or matches an existing one.
 * - `team_external_id`: omitted keeps the assignment, null clears it, a value assigns
 *   (the team must exist and be active).
 * - A different email for an existing user is 409 identity_conflict (use a profile change);
 *   a deleted user stays deleted (409; reprovision is required); a new user whose email
 *   another user of the integration has is 409 too (one-user-per-email.ts).
 * - Provisioning links an existing site account with that email (`existing_mg`) or creates a
 *   partner account (`partner_created`, whose password-setup notification is sent only once
 *   provisioning has succeeded), then creates the chat identity. When the site-account
 *   system or the chat store fails, the user stays `pending` (202) and a background job
 *   retries with backoff (`failed` once the retries are used up); a later PUT retries too.
 */
export async function provisionPartnerUser(
  deps: DirectoryDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
  input: { email: string; name?: string | undefined; teamExternalId?: string | null | undefined },
  options: { audit?: AuditActor } = {},
): Promise<{ user: PartnerUserRecord; outcome: ProvisionOutcome }> {
  const { db } = deps;
  const email = checkedEmail(input.email);
  const teamId = input.teamExternalId
    ? await resolveAssignableTeam(db, integration, input.teamExternalId)
    : input.teamExternalId;
  // Staff's request is recorded with the write that creates or matches the user. Provisioning
  // goes on outside it (other systems are called), so `outcome` is that write's: created or existing.
  const audit = async (tx: Database, outcome: "created" | "existing") => {
    if (!options.audit) return;
    await recordAudit(tx, {
      actor: options.audit.actor,
      action: "partner_user.create",
      target: `${integration.slug}/${externalUserId}`,
      details: { outcome, integration_id: integration.id },
    });
  };

  const created = await withTransaction(db, async (tx) => {
    const known = await tx.sql.query(
      "SELECT 1 FROM partner_users WHERE integration_id = $1 AND external_user_id = $2",
      [integration.id, externalUserId],
    );
    if (known.rowCount) return false;
    await claimEmailInIntegration(tx, { integrationId: integration.id, email, externalUserId });
    const inserted = await tx.sql.query(
      `INSERT INTO partner_users (id, integration_id, external_user_id, email, name, team_id, status, provisioning_status, mapping_status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'active', 'pending', 'pending', now(), now())
       ON CONFLICT (integration_id, external_user_id) DO NOTHING`,
      [newId("pu"), integration.id, externalUserId, email, input.name ?? null, teamId ?? null],
    );
    if (inserted.rowCount === 1) await audit(tx, "created");
    return inserted.rowCount === 1;
  });
  if (!created) {
    const matchExisting = async (on: Database) => {
      const existing = await readStoredUser(on, integration.id, externalUserId);
      assertMatchesExistingUser(externalUserId, existing, email);
      const newTeam = teamChange(teamId, existing.team_id);
      if (newTeam !== undefined) {
        await on.sql.query(
          "UPDATE partner_users SET team_id = $2, assignment_version = assignment_version + 1, updated_at = now() WHERE id = $1",
          [existing.id, newTeam],
        );
      }
      await audit(on, "existing");
    };
    // A transaction only when an audit row must commit with the team change.
    await (options.audit ? withTransaction(db, matchExisting) : matchExisting(db));
  }
  const [provisioned] = await completeProvisioning(deps, [await readStoredUser(db, integration.id, externalUserId)]);
  if (!provisioned) await retryProvisioningLater(deps, integration, externalUserId);
  const user = await getPartnerUser(db, integration, externalUserId);
  return { user, outcome: !provisioned ? "pending" : created ? "created" : "existing" };
}
