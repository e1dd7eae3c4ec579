import type { Database } from "../../db/database";
import { type JobQueue, QUEUES } from "../../jobs/job-queue";
import { withTransaction } from "../../db/transaction";
import { recordAudit } from "../../audit/audit-log";
import type { AuditActor } from "../../audit/audited-change";
import { AppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import type { ResolvedIntegration } from "../integrations/integrations";
import { type ChatIdentities, createChatIdentities } from "../ports/chat-identities";
import { checkedEmail } from "../../shared/email";
import { type SiteAccounts, sendPasswordSetups } from "../ports/site-accounts";
import { claimEmailInIntegration } from "./one-user-per-email";
import { linkSiteAccounts } from "./link-site-accounts";
import type { LinkedAccount } from "./site-account-ownership";
import { type SiteAccountSyncJob, syncSiteAccount } from "./site-account-sync";
import { type PartnerUserRecord, toPartnerUser, USER_COLUMNS, USER_FROM, type UserRow } from "./partner-user";
import { assertMatchesExistingUser, assignableTeamId, teamChange } from "./provisioning-rules";
import { announceLaunchEligibility, recordUserEvent } from "../../webhooks/partner-events";

export interface DirectoryDeps {
  db: Database;
  siteAccounts: SiteAccounts;
  chatIdentities: ChatIdentities;
  /** When present, provisioning left pending is retried in the background. */
  queue?: JobQueue;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

export async function findPartnerUser(db: Database, integration: ResolvedIntegration, externalUserId: string): Promise<PartnerUserRecord | undefined> {
  const { rows } = await db.sql.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM ${USER_FROM}
     WHERE u.integration_id = $1 AND u.external_user_id = $2`,
    [integration.id, externalUserId],
  );
  return rows[0] ? toPartnerUser(integration.slug, rows[0]) : undefined;
}

export async function getPartnerUser(db: Database, integration: ResolvedIntegration, externalUserId: string): Promise<PartnerUserRecord> {
  const user = await findPartnerUser(db, integration, externalUserId);
  if (!user) throw new AppError("not_found", `user ${externalUserId} not found`);
  return user;
}

/** The stored fields provisioning decides on. */
export interface StoredUser {
  id: string;
  email: string;
  name: string | null;
  team_id: string | null;
  status: string;
  provisioning_status: string;
  account_generation: number;
}

/** The columns of StoredUser, for queries that read them (here and in an import's chunks). */
export const STORED_USER_COLUMNS = "id, email, name, team_id, status, provisioning_status, account_generation";

/** A user gone meanwhile is a 404 (as Prisma's "not found" was). */
async function storedUser(db: Database, integrationId: string, externalUserId: string): Promise<StoredUser> {
  const { rows } = await db.sql.query<StoredUser>(`SELECT ${STORED_USER_COLUMNS} FROM partner_users WHERE integration_id = $1 AND external_user_id = $2`, [integrationId, externalUserId]);
  if (!rows[0]) throw new AppError("not_found", "this record no longer exists");
  return rows[0];
}

/** The team a request assigns (provisioning-rules.ts). */
async function resolveAssignableTeam(db: Database, integration: ResolvedIntegration, externalTeamId: string): Promise<string> {
  const { rows } = await db.sql.query<{ id: string; status: string }>("SELECT id, status FROM partner_teams WHERE integration_id = $1 AND external_team_id = $2", [integration.id, externalTeamId]);
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
  const teamId = input.teamExternalId ? await resolveAssignableTeam(db, integration, input.teamExternalId) : input.teamExternalId;
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
    const known = await tx.sql.query("SELECT 1 FROM partner_users WHERE integration_id = $1 AND external_user_id = $2", [integration.id, externalUserId]);
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
      const existing = await storedUser(on, integration.id, externalUserId);
      assertMatchesExistingUser(externalUserId, existing, email);
      const newTeam = teamChange(teamId, existing.team_id);
      if (newTeam !== undefined) {
        await on.sql.query("UPDATE partner_users SET team_id = $2, assignment_version = assignment_version + 1, updated_at = now() WHERE id = $1", [existing.id, newTeam]);
      }
      await audit(on, "existing");
    };
    // A transaction only when an audit row must commit with the team change.
    await (options.audit ? withTransaction(db, matchExisting) : matchExisting(db));
  }
  const provisioned = await completeProvisioning(deps, integration, externalUserId);
  if (!provisioned) await retryProvisioningLater(deps, integration, externalUserId);
  const user = await getPartnerUser(db, integration, externalUserId);
  return { user, outcome: !provisioned ? "pending" : created ? "created" : "existing" };
}

/** Provisioning left pending is retried in the background (when there is a queue). */
export async function retryProvisioningLater(deps: DirectoryDeps, integration: ResolvedIntegration, externalUserId: string): Promise<void> {
  await deps.queue?.enqueue(deps.db, QUEUES.provisioning, { integrationId: integration.id, slug: integration.slug, externalUserId }, `${integration.id}:${externalUserId}`);
}

/** Links the site account and chat identity of a pending user. True when the user is fully provisioned. */
export async function completeProvisioning(deps: DirectoryDeps, integration: ResolvedIntegration, externalUserId: string): Promise<boolean> {
  return completeStoredUserProvisioning(deps, await storedUser(deps.db, integration.id, externalUserId));
}

/** completeProvisioning of a user whose stored fields the caller has just read. */
export async function completeStoredUserProvisioning(deps: DirectoryDeps, user: StoredUser): Promise<boolean> {
  const [provisioned] = await completeStoredUsersProvisioning(deps, [user]);
  return provisioned === true;
}

/**
 * Completes the provisioning of several users (PUT user's one, or an import chunk's): their
 * site accounts are linked (linkSiteAccounts: together, and alone for whoever that cannot
 * settle; `concurrency` calls to the site-account system at a time), then the chat identities, the completions and the password-setup notifications of all of them go in one
 * call each. One user's failure leaves that user pending and the others unaffected. The
 * result says, per user in order, whether it is fully provisioned.
 */
export async function completeStoredUsersProvisioning(deps: DirectoryDeps, users: StoredUser[], options: { concurrency?: number } = {}): Promise<boolean[]> {
  const { db } = deps;
  const done = users.map((user) => user.provisioning_status === "active");
  const incomplete = (i: number, error: unknown) => deps.log?.("provisioning incomplete; the user stays pending", { user_id: users[i]?.id, error: String(error) });
  const todo = users.flatMap((user, i) => (user.provisioning_status === "active" || user.status === "deleted" ? [] : [i]));
  const retried = todo.filter((i) => users[i]?.provisioning_status === "failed").map((i) => (users[i] as StoredUser).id);
  if (retried.length) await db.sql.query("UPDATE partner_users SET provisioning_status = 'pending' WHERE id = ANY($1::text[])", [retried]);

  // Also when already linked: the account's lock is brought in line again, should an earlier attempt have failed there.
  const links = await linkSiteAccounts(
    deps,
    todo.map((i) => users[i] as StoredUser),
    { concurrency: options.concurrency ?? 1 },
  );
  const linked = new Map<number, LinkedAccount>();
  links.forEach((result, k) => {
    const i = todo[k] as number;
    if (result.status === "fulfilled") linked.set(i, result.value);
    else incomplete(i, result.reason);
  });
  const toIdentify = todo.filter((i) => linked.has(i));
  const identities = await createChatIdentities(
    deps.chatIdentities,
    toIdentify.map((i) => ({ partnerUserId: (users[i] as StoredUser).id, generation: (users[i] as StoredUser).account_generation })),
  );
  const identified = new Map<number, string>();
  identities.forEach((result, k) => {
    const i = toIdentify[k] as number;
    if (result.status === "fulfilled") identified.set(i, result.value.id);
    else incomplete(i, result.reason);
  });
  if (identified.size === 0) return done;

  // Only the attempt that completes provisioning sends the notification (a PUT and the background retry may race).
  let completedIds: Set<string>;
  try {
    completedIds = await withTransaction(db, async (tx) => {
      const completed = await tx.sql.query<{ id: string }>(
        `UPDATE partner_users u SET chat_identity_id = c.identity_id, provisioning_status = 'active', updated_at = now()
         FROM unnest($1::text[], $2::text[]) AS c(id, identity_id) WHERE u.id = c.id AND u.provisioning_status <> 'active' RETURNING u.id`,
        [[...identified.keys()].map((i) => (users[i] as StoredUser).id), [...identified.values()]],
      );
      // Users who can now launch are announced with the change (docs/decisions.md, "Events and webhooks").
      await announceLaunchEligibility(
        tx,
        completed.rows.map((row) => row.id),
      );
      return new Set(completed.rows.map((row) => row.id));
    });
  } catch (error) {
    for (const i of identified.keys()) incomplete(i, error);
    return done;
  }
  for (const i of identified.keys()) done[i] = true;
  // Only now that provisioning succeeded (spec 3.1). A failed send does not undo it.
  const toNotify = [...identified.keys()].filter((i) => completedIds.has((users[i] as StoredUser).id) && linked.get(i)?.identityOrigin === "partner_created");
  const sent = await sendPasswordSetups(
    deps.siteAccounts,
    toNotify.map((i) => (linked.get(i) as LinkedAccount).accountId),
  );
  sent.forEach((result, k) => {
    if (result.status === "rejected") deps.log?.("password-setup notification failed", { user_id: users[toNotify[k] as number]?.id, error: String(result.reason) });
  });
  return done;
}

/**
 * PATCH user {status} (spec 3.1). Disabling revokes access at once: access_version moves
 * (grants and chat tokens carry it). The site account is locked, and its sessions destroyed,
 * only when this mapping created it and is its only mapping (site-account-ownership.ts): a
 * pre-existing account, or one another partner's user is linked to, keeps its site access.
 * Reactivating permits a fresh login; old sessions are gone for good. A deleted user cannot be
 * reactivated.
 *
 * The status change commits with `wordpress_sync_status: pending` and a job that brings the
 * site account in line; the request then does that work itself, so the answer normally shows
 * it done. When the site-account system is down the job finishes it later (the user shows
 * `wordpress_sync_pending` meanwhile), and a crash between the two loses nothing.
 */
export async function setPartnerUserStatus(
  deps: DirectoryDeps & { queue: JobQueue },
  integration: ResolvedIntegration,
  externalUserId: string,
  status: "active" | "disabled",
  options: { audit?: AuditActor } = {},
): Promise<PartnerUserRecord> {
  const { db } = deps;
  const job = await withTransaction(db, async (tx) => {
    const { rows } = await tx.sql.query<{ id: string; status: string; site_account_id: string | null }>(
      "SELECT id, status, site_account_id FROM partner_users WHERE integration_id = $1 AND external_user_id = $2 FOR UPDATE",
      [integration.id, externalUserId],
    );
    const user = rows[0];
    if (!user) throw new AppError("not_found", `user ${externalUserId} not found`);
    if (user.status === "deleted") throw new AppError("identity_conflict", `user ${externalUserId} is deleted; it cannot be reactivated: use POST …/reprovision`);
    // Staff asking for the status the user already has is recorded too: the request was made.
    if (options.audit) {
      await recordAudit(tx, {
        actor: options.audit.actor,
        action: status === "disabled" ? "partner_user.disable" : "partner_user.reactivate",
        target: `${integration.slug}/${externalUserId}`,
        details: { integration_id: integration.id },
      });
    }
    if (user.status === status) return undefined;
    const changed = await tx.sql.query<{ access_version: number; site_sync_version: number }>(
      `UPDATE partner_users SET status = $2, access_version = access_version + CASE WHEN $2 = 'disabled' THEN 1 ELSE 0 END,
         wordpress_sync_status = CASE WHEN site_account_id IS NULL THEN wordpress_sync_status ELSE 'pending' END,
         site_sync_version = site_sync_version + 1, updated_at = now()
       WHERE id = $1 RETURNING access_version, site_sync_version`,
      [user.id, status],
    );
    // An email change waiting at the new address is withdrawn with the access.
    if (status === "disabled") {
      await tx.sql.query("UPDATE lifecycle_operations SET status = 'cancelled', verification_token_hash = NULL, updated_at = now() WHERE partner_user_id = $1 AND status = 'verification_pending'", [
        user.id,
      ]);
    }
    await recordUserEvent(tx, status === "disabled" ? "user.disabled" : "user.reactivated", user.id);
    if (!user.site_account_id) return undefined;
    const row = changed.rows[0] as { access_version: number; site_sync_version: number };
    const data: SiteAccountSyncJob = { partnerUserId: user.id, accountId: user.site_account_id, accessVersion: row.access_version, syncVersion: row.site_sync_version };
    await deps.queue.enqueue(tx, QUEUES.siteAccountSync, data, `${user.id}:${data.syncVersion}`);
    return data;
  });
  if (job) {
    await syncSiteAccount(deps, job).catch((error: unknown) => {
      deps.log?.("site account not updated yet; the job queue retries", { user_id: job.partnerUserId, error: String(error) });
    });
  }
  return getPartnerUser(db, integration, externalUserId);
}

export interface ProvisioningJob {
  integrationId: string;
  slug: string;
  externalUserId: string;
}

/** Background retry of a provisioning left pending; the last attempt marks it failed. */
export async function runProvisioningJob(deps: DirectoryDeps, job: ProvisioningJob, attempt: { last: boolean }): Promise<void> {
  const integration: ResolvedIntegration = { id: job.integrationId, organizationId: "", slug: job.slug };
  if (await completeProvisioning(deps, integration, job.externalUserId)) return;
  if (!attempt.last) throw new Error("provisioning still incomplete");
  await withTransaction(deps.db, async (tx) => {
    const failed = await tx.sql.query<{ id: string }>(
      "UPDATE partner_users SET provisioning_status = 'failed', updated_at = now() WHERE integration_id = $1 AND external_user_id = $2 AND provisioning_status = 'pending' RETURNING id",
      [job.integrationId, job.externalUserId],
    );
    if (failed.rows[0]) await recordUserEvent(tx, "user.provisioning_failed", failed.rows[0].id);
  });
}

/** The contact details partners never read back (spec 2.9), shown to staff for support. */
export async function getPartnerUserContact(db: Database, userId: string): Promise<{ email: string; name: string | null }> {
  const { rows } = await db.sql.query<{ email: string; name: string | null }>("SELECT email, name FROM partner_users WHERE id = $1", [userId]);
  if (!rows[0]) throw new AppError("not_found", `user ${userId} not found`);
  return rows[0];
}
