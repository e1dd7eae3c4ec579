import { recordAudit } from "../audit/audit-log";
import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { publishKeyChange } from "../keys/key-changes";

/**
 * What stands in the way of deleting an organization. Keys can only be revoked and
 * integrations only disabled, so what is left of them once they are is removed with the
 * organization; what still works (an active key or integration) or still belongs to a person
 * (a partner user who is not deleted) blocks it, and staff are told which.
 */
export interface DeletionBlockers {
  activeKeys: number;
  activeIntegrations: number;
  partnerUsers: number;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "1 active API key and 2 partner users", or "" when nothing blocks. */
export function describeBlockers(blockers: DeletionBlockers): string {
  const parts = [
    blockers.activeKeys ? count(blockers.activeKeys, "active API key", "active API keys") : "",
    blockers.activeIntegrations ? count(blockers.activeIntegrations, "active integration", "active integrations") : "",
    blockers.partnerUsers ? count(blockers.partnerUsers, "partner user", "partner users") : "",
  ].filter(Boolean);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "");
}

/** The blockers of each organization by id (all of them when `ids` is omitted), in one statement. */
export async function findDeletionBlockers(
  db: Database,
  ids?: readonly string[],
): Promise<Map<string, DeletionBlockers>> {
  const { rows } = await db.sql.query<{
    id: string;
    active_keys: number;
    active_integrations: number;
    partner_users: number;
  }>(
    `SELECT o.id,
            (SELECT count(*)::int FROM api_keys k WHERE k.organization_id = o.id AND k.status = 'active') AS active_keys,
            (SELECT count(*)::int FROM integrations i WHERE i.organization_id = o.id AND i.status = 'active') AS active_integrations,
            (SELECT count(*)::int FROM partner_users u JOIN integrations i ON i.id = u.integration_id WHERE i.organization_id = o.id AND u.status <> 'deleted') AS partner_users
     FROM organizations o ${ids ? "WHERE o.id = ANY($1)" : ""}`,
    ids ? [ids] : [],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      { activeKeys: row.active_keys, activeIntegrations: row.active_integrations, partnerUsers: row.partner_users },
    ]),
  );
}

/**
 * Deletes an organization with no active keys, no active integrations and no partner users,
 * with its revoked keys (and their conversations), its disabled integrations (their aliases,
 * teams, import jobs and deleted users' remains) and its tenant configuration, in one
 * transaction with one audit entry that lists what went. The row is locked first, so a key or
 * integration created meanwhile either waits and is then counted, or fails. Only rows of this
 * organization's own keys and integrations are touched.
 */
export async function deleteOrganization(
  db: Database,
  id: string,
  actor: string,
): Promise<{ id: string; name: string; createdAt: Date }> {
  return withTransaction(db, async (tx) => {
    const found = await tx.sql.query<{ id: string; name: string; created_at: Date }>(
      "SELECT id, name, created_at FROM organizations WHERE id = $1 FOR UPDATE",
      [id],
    );
    const org = found.rows[0];
    if (!org) throw new AppError("not_found", `organization ${id} not found`);
    const blockers = (await findDeletionBlockers(tx, [id])).get(id) as DeletionBlockers;
    const blocking = describeBlockers(blockers);
    if (blocking) {
      const todo = [
        blockers.activeKeys ? "revoke its keys" : "",
        blockers.activeIntegrations ? "disable its integrations" : "",
        blockers.partnerUsers ? "delete its partner users" : "",
      ].filter(Boolean);
      throw new AppError("invalid_request", `${org.name} still has ${blocking}; ${todo.join(", ")} first`, {
        status: 409,
      });
    }
    const keys = (
      await tx.sql.query<{ id: string }>(
        "SELECT id FROM api_keys WHERE organization_id = $1 ORDER BY created_at, id FOR UPDATE",
        [id],
      )
    ).rows.map((row) => row.id);
    const integrations = (
      await tx.sql.query<{ id: string; slug: string }>(
        "SELECT id, slug FROM integrations WHERE organization_id = $1 ORDER BY created_at, id FOR UPDATE",
        [id],
      )
    ).rows;
    const integrationIds = integrations.map((row) => row.id);
    // Rows that point at the keys, integrations or deleted users without a foreign key (the
    // organization's own foreign keys cascade to keys, conversations, integrations, aliases, teams, users).
    const users = "SELECT id FROM partner_users WHERE integration_id = ANY($1)";
    for (const statement of [
      `DELETE FROM chat_tokens WHERE partner_user_id IN (${users})`,
      `DELETE FROM embed_sessions WHERE partner_user_id IN (${users})`,
      `DELETE FROM chat_grants WHERE partner_user_id IN (${users})`,
      `DELETE FROM chat_identities WHERE partner_user_id IN (${users})`,
      `DELETE FROM partner_user_rate_limit_counters WHERE partner_user_id IN (${users})`,
      "DELETE FROM lifecycle_operations WHERE integration_id = ANY($1)",
      "DELETE FROM import_jobs WHERE integration_id = ANY($1)",
      "DELETE FROM launches WHERE integration_id = ANY($1)",
      "DELETE FROM launch_bindings WHERE integration_id = ANY($1)",
    ]) {
      await tx.sql.query(statement, [integrationIds]);
    }
    for (const statement of [
      "DELETE FROM chat_grants WHERE api_key_id = ANY($1)",
      "DELETE FROM launches WHERE api_key_id = ANY($1)",
      "DELETE FROM launch_bindings WHERE api_key_id = ANY($1)",
      "DELETE FROM idempotency_records WHERE api_key_id = ANY($1)",
      "DELETE FROM rate_limit_counters WHERE api_key_id = ANY($1)",
    ]) {
      await tx.sql.query(statement, [keys]);
    }
    await tx.sql.query("DELETE FROM organizations WHERE id = $1", [id]);
    await publishKeyChange(tx, { kind: "organization", id });
    await recordAudit(tx, {
      actor,
      action: "organization.delete",
      target: id,
      details: {
        name: org.name,
        revoked_keys_removed: keys,
        disabled_integrations_removed: integrations.map((row) => row.slug),
      },
    });
    return { id: org.id, name: org.name, createdAt: org.created_at };
  });
}
