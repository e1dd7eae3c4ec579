import type { Database } from "../../db/database";
import { withTransaction } from "../../db/transaction";
import { announceLaunchEligibility } from "../../webhooks/partner-events";
import type { SiteAccounts } from "../ports/site-accounts";
import { ownsSiteAccount, reconcileSiteAccountLock, withSiteAccount } from "./site-account-ownership";

/**
 * The site account's side of a partner user's status change (PATCH user): locked or unlocked
 * as the ownership rule says (reconcileSiteAccountLock), and, for the disabling that asked for
 * it, the sessions of an account the user owns destroyed. Queued with the status change and
 * also run by the request itself; idempotent, so both runs, retries and a later change's run
 * all end in the state of the latest change. `wordpress_sync_status` becomes `applied` only
 * for the latest change (`syncVersion`): an older run never marks a newer change done.
 */
export interface SiteAccountSyncJob {
  partnerUserId: string;
  accountId: string;
  /** The user's access_version when the change was made: sessions are destroyed only for that disabling. */
  accessVersion: number;
  /** The user's site_sync_version after the change. */
  syncVersion: number;
}

interface SyncDeps {
  db: Database;
  siteAccounts: SiteAccounts;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

export async function syncSiteAccount(deps: SyncDeps, job: SiteAccountSyncJob): Promise<void> {
  await withSiteAccount(deps, job.accountId, async () => {
    const { rows } = await deps.db.sql.query<{
      status: string;
      access_version: number;
      site_account_id: string | null;
    }>("SELECT status, access_version, site_account_id FROM partner_users WHERE id = $1", [job.partnerUserId]);
    const user = rows[0];
    if (!user || user.site_account_id !== job.accountId) return;
    await reconcileSiteAccountLock(deps, job.accountId);
    if (
      user.status === "disabled" &&
      user.access_version === job.accessVersion &&
      (await ownsSiteAccount(deps.db, job.accountId, job.partnerUserId))
    ) {
      await deps.siteAccounts.destroySessions(job.accountId);
    }
    await withTransaction(deps.db, async (tx) => {
      await tx.sql.query(
        "UPDATE partner_users SET wordpress_sync_status = 'applied', updated_at = now() WHERE id = $1 AND site_sync_version = $2",
        [job.partnerUserId, job.syncVersion],
      );
      await announceLaunchEligibility(tx, [job.partnerUserId]);
    });
  });
}

/** The queue's side: retried with backoff; when the latest change's last attempt fails it shows as `wordpress_sync_failed`. */
export async function runSiteAccountSyncJob(
  deps: SyncDeps,
  job: SiteAccountSyncJob,
  attempt: { last: boolean },
): Promise<void> {
  try {
    await syncSiteAccount(deps, job);
  } catch (error) {
    if (!attempt.last) throw error;
    deps.log?.("site account could not be updated; giving up", { user_id: job.partnerUserId, error: String(error) });
    await withTransaction(deps.db, async (tx) => {
      await tx.sql.query(
        "UPDATE partner_users SET wordpress_sync_status = 'failed', updated_at = now() WHERE id = $1 AND site_sync_version = $2 AND wordpress_sync_status = 'pending'",
        [job.partnerUserId, job.syncVersion],
      );
      await announceLaunchEligibility(tx, [job.partnerUserId]);
    });
  }
}
