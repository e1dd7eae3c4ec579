import type { Database } from "../../db/database";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors/app-error";
import { QUEUES, type JobQueue } from "../../jobs/job-queue";
import { completeProvisioning } from "../users/complete-provisioning";
import type { DirectoryDeps } from "../users/directory-deps";
import { emailTakenError, findEmailHolder, type EmailHolder } from "../users/one-user-per-email";
import { ownsSiteAccount, reconcileSiteAccountLock, withSiteAccount } from "../users/site-account-ownership";
import { readStoredUser } from "../users/stored-user";
import { recordOperationOutcome } from "./operation-events";
import type { OperationAuthority } from "./operation-values";
import { createVerificationToken, enqueueVerification, VERIFICATION_HOURS } from "./verification-link";

/**
 * The worker side of lifecycle operations. Every step is idempotent and checks what is
 * already done, so a retry (after an error, or after a crash between steps) finishes the
 * work without repeating it. Throwing asks the queue to retry with backoff; on the last
 * attempt the operation is marked failed with an error code instead.
 */
export interface LifecycleJob {
  operationId: string;
  /** Set on the job that sends an email-verification link. */
  sendVerification?: boolean;
}

interface OperationRow {
  id: string;
  type: "profile_change" | "deletion" | "reprovision";
  status: string;
  authorized_by: OperationAuthority | null;
  requested_email: string | null;
  requested_name: string | null;
  partner_user_id: string;
  integration_id: string;
  slug: string;
  external_user_id: string;
  identity_origin: string | null;
  site_account_id: string | null;
  chat_identity_id: string | null;
}

export async function runLifecycleJob(
  deps: DirectoryDeps & { queue: JobQueue },
  job: LifecycleJob,
  attempt: { last: boolean },
): Promise<void> {
  const { db } = deps;
  const { rows } = await db.sql.query<OperationRow>(
    `SELECT o.id, o.type, o.status, o.authorized_by, o.requested_email, o.requested_name, o.partner_user_id, o.integration_id, i.slug,
            u.external_user_id, u.identity_origin, u.site_account_id, u.chat_identity_id
     FROM lifecycle_operations o JOIN partner_users u ON u.id = o.partner_user_id JOIN integrations i ON i.id = o.integration_id
     WHERE o.id = $1`,
    [job.operationId],
  );
  const op = rows[0];
  if (!op) return;

  if (job.sendVerification) {
    if (op.status !== "verification_pending" || !op.site_account_id || !op.requested_email) return;
    // A retry makes a new token: the link of a failed send never worked anyway.
    const token = await createVerificationToken(db, op.id);
    if (token)
      await deps.siteAccounts.sendEmailVerification(op.site_account_id, { newEmail: op.requested_email, token });
    return;
  }
  if (op.status !== "queued" && op.status !== "processing") return;
  const taken = await startProcessing(db, op);
  if (taken) return refuseTakenEmail(deps, op, taken);

  try {
    if (op.type === "deletion") await runDeletion(deps, op);
    else if (op.type === "reprovision") await runReprovision(deps, op);
    else await runProfileChange(deps, op);
  } catch (error) {
    deps.log?.("lifecycle step failed", { operation_id: op.id, last_attempt: attempt.last, error: String(error) });
    if (!attempt.last) throw error;
    const code = error instanceof AppError ? error.code : `${op.type}_failed`;
    await withTransaction(db, async (tx) => {
      await tx.sql.query(
        "UPDATE lifecycle_operations SET status = 'failed', error_code = $2, updated_at = now() WHERE id = $1",
        [op.id, code],
      );
      if (op.type === "reprovision")
        await tx.sql.query(
          "UPDATE partner_users SET provisioning_status = 'failed', updated_at = now() WHERE id = $1",
          [op.partner_user_id],
        );
      if (op.type === "profile_change")
        await tx.sql.query(
          "UPDATE partner_users SET profile_sync_status = 'failed', updated_at = now() WHERE id = $1",
          [op.partner_user_id],
        );
      await recordOperationOutcome(tx, op.id);
    });
  }
}

/**
 * Marks the operation processing. An email change claims its address first (one user per
 * email in an integration): checked at the request, it is checked again here, since another
 * user of the integration may have taken the address while the change waited for verification
 * or in the queue. From here until it completes, the change holds the address.
 */
async function startProcessing(db: Database, op: OperationRow): Promise<EmailHolder | undefined> {
  const markProcessing =
    "UPDATE lifecycle_operations SET status = 'processing', updated_at = now() WHERE id = $1 AND status = 'queued'";
  const email = op.type === "profile_change" ? op.requested_email : null;
  if (!email) {
    await db.sql.query(markProcessing, [op.id]);
    return undefined;
  }
  return withTransaction(db, async (tx) => {
    const holder = await findEmailHolder(tx, {
      integrationId: op.integration_id,
      email,
      externalUserId: op.external_user_id,
    });
    if (!holder) await tx.sql.query(markProcessing, [op.id]);
    return holder;
  });
}

/** Applying the change would link two users of the integration to one account: it fails at once (a retry cannot help) and nothing changes. */
async function refuseTakenEmail(deps: DirectoryDeps, op: OperationRow, holder: EmailHolder): Promise<void> {
  await refuseEmailChange(deps, op, emailTakenError(holder));
}

/** An email change that cannot be applied as asked: failed at once with the error's code, nothing changed. */
async function refuseEmailChange(deps: DirectoryDeps, op: OperationRow, error: AppError): Promise<void> {
  deps.log?.("lifecycle step refused", { operation_id: op.id, error_code: error.code, error: error.message });
  await withTransaction(deps.db, async (tx) => {
    const { rowCount } = await tx.sql.query(
      "UPDATE lifecycle_operations SET status = 'failed', error_code = $2, updated_at = now() WHERE id = $1 AND status IN ('queued', 'processing')",
      [op.id, error.code],
    );
    if (rowCount !== 1) return;
    await tx.sql.query("UPDATE partner_users SET profile_sync_status = 'failed', updated_at = now() WHERE id = $1", [
      op.partner_user_id,
    ]);
    await recordOperationOutcome(tx, op.id);
  });
}

/**
 * Deletion: the site account is deleted when this mapping owns it (a partner created it and
 * no other mapping is linked); otherwise the mapping is only detached and the account keeps
 * its own site access. The chat identity is blocked, the generation closed, and the user's
 * personal data erased from our record. No notification is sent. Decided and done under the
 * account's lock, so a link made meanwhile is seen; the lock left to the other mappings is
 * settled before the operation completes, so a failure there is retried.
 */
async function runDeletion(deps: DirectoryDeps, op: OperationRow): Promise<void> {
  const detach = async () => {
    if (op.chat_identity_id) await deps.chatIdentities.block(op.chat_identity_id);
    await finishWith(
      deps.db,
      op,
      `UPDATE partner_users SET status = 'deleted', mapping_status = 'unmapped', site_account_id = NULL, chat_identity_id = NULL,
         team_id = NULL, email = '', name = NULL, updated_at = now()
       WHERE id = $2 AND EXISTS (SELECT 1 FROM done)`,
      [op.partner_user_id],
    );
  };
  const accountId = op.site_account_id;
  if (!accountId) return detach();
  await withSiteAccount(deps, accountId, async () => {
    if (await ownsSiteAccount(deps.db, accountId, op.partner_user_id)) {
      await deps.siteAccounts.deleteAccount(accountId);
      await deps.db.sql.query("DELETE FROM partner_created_site_accounts WHERE site_account_id = $1", [accountId]);
    } else {
      // The mappings left may leave a disabled creator alone with the account.
      await reconcileSiteAccountLock(deps, accountId, { without: op.partner_user_id });
    }
    await detach();
  });
}

/** Reprovision: new site and chat identities for the new generation (the request already moved it). */
async function runReprovision(deps: DirectoryDeps, op: OperationRow): Promise<void> {
  const [provisioned] = await completeProvisioning(deps, [
    await readStoredUser(deps.db, op.integration_id, op.external_user_id),
  ]);
  if (!provisioned)
    throw new AppError("upstream_error", "the site-account system or chat identity store is unavailable");
  await withTransaction(deps.db, async (tx) => {
    const { rowCount } = await tx.sql.query(
      "UPDATE lifecycle_operations SET status = 'completed', error_code = NULL, completed_at = now(), updated_at = now() WHERE id = $1 AND status = 'processing'",
      [op.id],
    );
    if (rowCount === 1) await recordOperationOutcome(tx, op.id);
  });
}

/**
 * Profile change (docs/decisions.md, "Site accounts shared between partners"). Under the
 * account's lock:
 * - an account this mapping owns (a partner created it, nobody else is linked) is updated
 *   directly; an email change also forgets its password (whoever chose it need not own the new
 *   address) and sends a setup link to the new address;
 * - a staff override updates the account whatever links it;
 * - otherwise the account is never changed by a partner: a confirmed email change moves this
 *   mapping to the new address's account (linked, or created, by the provisioning queue), an
 *   unconfirmed one waits for verification first, and a name applies to our record only.
 * An email change revokes grants and sessions (access_version moves); a name-only change keeps them.
 */
const ADDRESS_HAS_ACCOUNT = new AppError(
  "identity_conflict",
  "the new address already belongs to another site account, and this user's account cannot take it; ask the user for an address of their own",
);

async function runProfileChange(deps: DirectoryDeps & { queue: JobQueue }, op: OperationRow): Promise<void> {
  const accountId = op.site_account_id;
  const finish = (options: { relink: boolean }, db: Database = deps.db) =>
    finishWith(
      db,
      op,
      `UPDATE partner_users SET email = COALESCE($3, email), name = COALESCE($4, name), profile_version = profile_version + 1,
         access_version = access_version + CASE WHEN $3::text IS NULL THEN 0 ELSE 1 END, profile_sync_status = 'applied',
         site_account_id = CASE WHEN $5 THEN NULL ELSE site_account_id END,
         identity_origin = CASE WHEN $5 THEN NULL ELSE identity_origin END,
         mapping_status = CASE WHEN $5 THEN 'pending' ELSE mapping_status END,
         provisioning_status = CASE WHEN $5 THEN 'pending' ELSE provisioning_status END, updated_at = now()
       WHERE id = $2 AND EXISTS (SELECT 1 FROM done)`,
      [op.partner_user_id, op.requested_email, op.requested_name, options.relink],
    );
  if (!accountId) return finish({ relink: false });
  await withSiteAccount(
    deps,
    accountId,
    async () => {
      const owns = await ownsSiteAccount(deps.db, accountId, op.partner_user_id);
      if (owns || op.authorized_by === "staff_override") {
        // Re-emailing this account to an address another site account has would fail in the
        // site system on every retry: refused at once, in words, with nothing changed.
        const holder = op.requested_email ? await deps.siteAccounts.findByEmail(op.requested_email) : null;
        if (holder && holder.id !== accountId) return refuseEmailChange(deps, op, ADDRESS_HAS_ACCOUNT);
        await deps.siteAccounts.updateProfile(accountId, {
          email: op.requested_email ?? undefined,
          name: op.requested_name ?? undefined,
        });
        if (op.requested_email) {
          await deps.siteAccounts.destroySessions(accountId);
          // Every step repeats harmlessly, so the link goes out before the operation completes.
          if (owns) {
            await deps.siteAccounts.resetPassword(accountId);
            await deps.siteAccounts.sendPasswordSetup(accountId);
          }
        }
        return finish({ relink: false });
      }
      if (!op.requested_email) return finish({ relink: false });
      if (op.authorized_by !== "verification") return requireVerification(deps, op);
      // Confirmed at the new address: this mapping leaves the shared or pre-existing account
      // (whose lock is settled first) and the provisioning queue links the new address's.
      await reconcileSiteAccountLock(deps, accountId, { without: op.partner_user_id });
      await withTransaction(deps.db, async (tx) => {
        await finish({ relink: true }, tx);
        const job = { integrationId: op.integration_id, slug: op.slug, externalUserId: op.external_user_id };
        await deps.queue.enqueue(tx, QUEUES.provisioning, job, `${op.integration_id}:${op.external_user_id}`);
      });
    },
    { newEmail: op.requested_email ?? undefined },
  );
}

/** An email change that turned out to need the new address's confirmation: it waits for it, and our record keeps the old profile. */
async function requireVerification(deps: DirectoryDeps & { queue: JobQueue }, op: OperationRow): Promise<void> {
  const { rowCount } = await deps.db.sql.query(
    `UPDATE lifecycle_operations SET status = 'verification_pending', verification_expires_at = now() + make_interval(hours => $2), updated_at = now()
     WHERE id = $1 AND status = 'processing'`,
    [op.id, VERIFICATION_HOURS],
  );
  if (rowCount !== 1) return;
  await deps.db.sql.query(
    "UPDATE partner_users SET profile_sync_status = 'applied', updated_at = now() WHERE id = $1",
    [op.partner_user_id],
  );
  await enqueueVerification(deps, deps.db, op.id);
}

/**
 * Completes the operation and applies its effect on the user in one statement, so a retry
 * after a crash can never apply the effect twice (the second time the operation is no
 * longer `processing`, and the user update matches nothing).
 */
async function finishWith(db: Database, op: OperationRow, userUpdate: string, params: unknown[]): Promise<void> {
  await withTransaction(db, async (tx) => {
    const { rowCount } = await tx.sql.query(
      `WITH done AS (
         UPDATE lifecycle_operations SET status = 'completed', error_code = NULL, completed_at = now(), updated_at = now()
         WHERE id = $1 AND status = 'processing' RETURNING id
       )
       ${userUpdate}`,
      [op.id, ...params],
    );
    // The user update matched only if this call completed the operation: its event goes with it.
    if (rowCount === 1) await recordOperationOutcome(tx, op.id);
  });
}
