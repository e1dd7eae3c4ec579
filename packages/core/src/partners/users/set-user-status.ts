import { recordAudit } from "../../audit/audit-log";
import type { AuditActor } from "../../audit/audited-change";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors/app-error";
import { QUEUES, type JobQueue } from "../../jobs/job-queue";
import { recordUserEvent } from "../../webhooks/partner-events";
import type { ResolvedIntegration } from "../integrations/integrations";
import type { DirectoryDeps } from "./directory-deps";
import { getPartnerUser } from "./get-user";
import type { PartnerUserRecord } from "./partner-user";
import { syncSiteAccount, type SiteAccountSyncJob } from "./site-account-sync";

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
    if (user.status === "deleted")
      throw new AppError(
        "identity_conflict",
        `user ${externalUserId} is deleted; it cannot be reactivated: use POST …/reprovision`,
      );
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
      await tx.sql.query(
        "UPDATE lifecycle_operations SET status = 'cancelled', verification_token_hash = NULL, updated_at = now() WHERE partner_user_id = $1 AND status = 'verification_pending'",
        [user.id],
      );
    }
    await recordUserEvent(tx, status === "disabled" ? "user.disabled" : "user.reactivated", user.id);
    if (!user.site_account_id) return undefined;
    const row = changed.rows[0] as { access_version: number; site_sync_version: number };
    const data: SiteAccountSyncJob = {
      partnerUserId: user.id,
      accountId: user.site_account_id,
      accessVersion: row.access_version,
      syncVersion: row.site_sync_version,
    };
    await deps.queue.enqueue(tx, QUEUES.siteAccountSync, data, `${user.id}:${data.syncVersion}`);
    return data;
  });
  if (job) {
    await syncSiteAccount(deps, job).catch((error: unknown) => {
      deps.log?.("site account not updated yet; the job queue retries", {
        user_id: job.partnerUserId,
        error: String(error),
      });
    });
  }
  return getPartnerUser(db, integration, externalUserId);
}
