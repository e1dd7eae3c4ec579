import type { Database } from "../../db/database";
import { withTransaction } from "../../db/transaction";
import { recordAudit } from "../../audit/audit-log";
import { AppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import { type JobQueue, QUEUES } from "../../jobs/job-queue";
import type { ResolvedIntegration } from "../integrations/integrations";
import { checkedEmail } from "../../shared/email";
import type { OperationAuthority, OperationStatus, OperationType } from "./operation-values";
import type { DirectoryDeps } from "../users/directory-deps";
import { claimEmailInIntegration } from "../users/one-user-per-email";
import { hashSecret, newSecretToken } from "../../ids/secret-token";
import { beginSignInAttempt } from "../../sign-ins/sign-in-throttle";
import { announceLaunchEligibility, recordUserEvent } from "../../webhooks/partner-events";

/**
 * Lifecycle operations (spec 2.10, 3.2, 3.3). State machine:
 *
 *   queued ──▶ processing ──▶ completed
 *      │            └──────▶ failed        (retries exhausted; error_code says why)
 *      └──▶ cancelled                      (superseded: the user is being deleted)
 *   verification_pending ──▶ processing    (the new address was confirmed)
 *          ├──▶ expired                    (not confirmed within 24 hours)
 *          └──▶ cancelled                  (superseded by another profile change or a deletion)
 *
 * Every request creates the operation, changes what must change at once, and enqueues the
 * rest, in one transaction; the worker (run-operation.ts) finishes it.
 */
export const VERIFICATION_HOURS = 24;

export interface OperationDeps extends DirectoryDeps {
  queue: JobQueue;
}

export interface OperationRecord {
  id: string;
  type: OperationType;
  status: OperationStatus;
  errorCode: string | null;
  integration: string;
  externalUserId: string;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

interface LockedUser {
  id: string;
  status: string;
  identity_origin: string | null;
  provisioning_status: string;
  email: string;
  name: string | null;
  /** Whether another partner mapping is linked to this user's site account. */
  shared: boolean;
}

/** Runs `work` in a transaction with the user's row locked; enqueues the operation's job in it. */
async function withLockedUser<T>(
  deps: OperationDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
  work: (tx: Database, user: LockedUser) => Promise<{ result: T; enqueue?: string }>,
): Promise<T> {
  return withTransaction(deps.db, async (tx) => {
    const { rows } = await tx.sql.query<LockedUser>(
      `SELECT u.id, u.status, u.identity_origin, u.provisioning_status, u.email, u.name,
              EXISTS (SELECT 1 FROM partner_users o WHERE o.site_account_id = u.site_account_id AND o.id <> u.id) AS shared
       FROM partner_users u WHERE u.integration_id = $1 AND u.external_user_id = $2 FOR UPDATE OF u`,
      [integration.id, externalUserId],
    );
    if (!rows[0]) throw new AppError("not_found", `user ${externalUserId} not found`);
    const { result, enqueue } = await work(tx, rows[0]);
    if (enqueue) await deps.queue.enqueue(tx, QUEUES.lifecycle, { operationId: enqueue }, enqueue);
    // A request may stop the user launching (a deletion, a reprovision, a pending profile sync).
    await announceLaunchEligibility(tx, [rows[0].id]);
    return result;
  });
}

async function insertOperation(
  tx: Database,
  input: {
    integrationId: string;
    userId: string;
    type: OperationType;
    status: OperationStatus;
    email?: string | null;
    name?: string | null;
    note?: string | null;
    verification?: boolean;
    authorizedBy?: OperationAuthority | null;
  },
): Promise<string> {
  const id = newId("op");
  await tx.sql.query(
    `INSERT INTO lifecycle_operations (id, integration_id, partner_user_id, type, status, requested_email, requested_name, note,
       verification_expires_at, authorized_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $9 THEN now() + make_interval(hours => $10) ELSE NULL END, $11, now(), now())`,
    [
      id,
      input.integrationId,
      input.userId,
      input.type,
      input.status,
      input.email ?? null,
      input.name ?? null,
      input.note ?? null,
      input.verification === true,
      VERIFICATION_HOURS,
      input.authorizedBy ?? null,
    ],
  );
  await tx.sql.query("UPDATE partner_users SET last_operation_id = $2, updated_at = now() WHERE id = $1", [input.userId, id]);
  return id;
}

/** POST deletions: access is cut now (status disabled, access_version moves); the worker deletes. */
export async function requestDeletion(deps: OperationDeps, integration: ResolvedIntegration, externalUserId: string, input: { note?: string | undefined }): Promise<string> {
  return withLockedUser(deps, integration, externalUserId, async (tx, user) => {
    if (user.status === "deleted") throw new AppError("identity_conflict", `user ${externalUserId} is already deleted`);
    const running = await tx.sql.query<{ id: string }>("SELECT id FROM lifecycle_operations WHERE partner_user_id = $1 AND type = 'deletion' AND status IN ('queued', 'processing')", [user.id]);
    // A deletion already under way is the answer to a second request.
    if (running.rows[0]) return { result: running.rows[0].id };
    await tx.sql.query(
      "UPDATE lifecycle_operations SET status = 'cancelled', updated_at = now() WHERE partner_user_id = $1 AND type = 'profile_change' AND status IN ('queued', 'verification_pending')",
      [user.id],
    );
    await tx.sql.query("UPDATE partner_users SET status = 'disabled', access_version = access_version + 1, updated_at = now() WHERE id = $1", [user.id]);
    if (user.status !== "disabled") await recordUserEvent(tx, "user.disabled", user.id);
    const id = await insertOperation(tx, { integrationId: integration.id, userId: user.id, type: "deletion", status: "queued", note: input.note });
    return { result: id, enqueue: id };
  });
}

/** POST reprovision: only a deleted user; a new account generation with new identities. */
export async function requestReprovision(deps: OperationDeps, integration: ResolvedIntegration, externalUserId: string, input: { email: string; name?: string | undefined }): Promise<string> {
  const email = checkedEmail(input.email);
  return withLockedUser(deps, integration, externalUserId, async (tx, user) => {
    if (user.status !== "deleted") throw new AppError("identity_conflict", `user ${externalUserId} is not deleted; only a deleted user can be reprovisioned`);
    await claimEmailInIntegration(tx, { integrationId: integration.id, email, externalUserId });
    await tx.sql.query(
      `UPDATE partner_users SET account_generation = account_generation + 1, access_version = access_version + 1, status = 'active',
         provisioning_status = 'pending', mapping_status = 'pending', identity_origin = NULL, site_account_id = NULL, chat_identity_id = NULL,
         email = $2, name = $3, team_id = NULL, profile_sync_status = 'applied', wordpress_sync_status = 'applied', updated_at = now()
       WHERE id = $1`,
      [user.id, email, input.name ?? null],
    );
    const id = await insertOperation(tx, { integrationId: integration.id, userId: user.id, type: "reprovision", status: "queued" });
    return { result: id, enqueue: id };
  });
}

/**
 * POST profile-changes (spec 3.3). A partner-created identity that only this partner's user is
 * linked to is updated directly (queued → processing → completed). An account that is
 * pre-existing, or shared with another partner's user (site-account-ownership.ts): an email
 * change waits for verification at the new address (verification_pending; the old profile
 * stays in force). A name-only change to a pre-existing account needs an audited staff
 * override (409 here); to a shared partner-created one it applies to this partner's record only.
 */
export async function requestProfileChange(
  deps: OperationDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
  input: { email?: string | undefined; name?: string | undefined; override?: { actor: string; reason: string } },
): Promise<string> {
  const email = input.email === undefined ? undefined : checkedEmail(input.email);
  return withLockedUser(deps, integration, externalUserId, async (tx, user) => {
    if (user.status === "deleted") throw new AppError("identity_conflict", `user ${externalUserId} is deleted`);
    if (user.provisioning_status !== "active") throw new AppError("identity_conflict", `user ${externalUserId} is not provisioned yet; retry once provisioning has completed`);
    const emailChanges = email !== undefined && email !== user.email;
    const nameChanges = input.name !== undefined && input.name !== user.name;
    if (!emailChanges && !nameChanges) throw new AppError("invalid_request", "email, name: nothing to change (both equal the current profile)");
    const partnerCreated = user.identity_origin === "partner_created";
    if (!input.override && !partnerCreated && !emailChanges) {
      throw new AppError("identity_conflict", "a name change to a pre-existing account needs an audited staff override");
    }
    if (emailChanges) await claimEmailInIntegration(tx, { integrationId: integration.id, email, externalUserId });
    await tx.sql.query(
      "UPDATE lifecycle_operations SET status = 'cancelled', updated_at = now() WHERE partner_user_id = $1 AND type = 'profile_change' AND status IN ('queued', 'verification_pending')",
      [user.id],
    );
    const values = { integrationId: integration.id, userId: user.id, type: "profile_change" as const, email: emailChanges ? email : null, name: nameChanges ? input.name : null };
    // The worker checks ownership again under the account's lock: an account shared meanwhile
    // turns a direct email change into one that needs verification.
    const direct = input.override !== undefined || !emailChanges || (partnerCreated && !user.shared);
    if (direct) {
      await tx.sql.query("UPDATE partner_users SET profile_sync_status = 'pending', updated_at = now() WHERE id = $1", [user.id]);
      const id = await insertOperation(tx, {
        ...values,
        status: "queued",
        note: input.override ? `override by ${input.override.actor}: ${input.override.reason}` : null,
        authorizedBy: input.override ? "staff_override" : null,
      });
      if (input.override) {
        await recordAudit(tx, {
          actor: input.override.actor,
          action: "partner_user.profile_override",
          target: `${integration.slug}/${externalUserId}`,
          // Old and new values, for staff reading the log (the audit log is never on /v1).
          details: {
            operation_id: id,
            integration_id: integration.id,
            reason: input.override.reason,
            fields: [...(emailChanges ? ["email"] : []), ...(nameChanges ? ["name"] : [])],
            ...(emailChanges ? { email: { from: user.email, to: email } } : {}),
            ...(nameChanges ? { name: { from: user.name, to: input.name } } : {}),
          },
        });
      }
      return { result: id, enqueue: id };
    }
    const id = await insertOperation(tx, { ...values, status: "verification_pending", verification: true });
    await enqueueVerification(deps, tx, id);
    return { result: id };
  });
}

/**
 * The worker creates the link's token (only its hash is stored) and sends it, so no secret
 * ever sits in a job's data or a response.
 */
export async function enqueueVerification(deps: { queue: JobQueue }, db: Database, operationId: string): Promise<void> {
  await deps.queue.enqueue(db, QUEUES.lifecycle, { operationId, sendVerification: true }, `${operationId}:verify`);
}

/**
 * The new address confirmed an email change (its link's page posts the token): the change is
 * applied by the worker. Throttled per client address, like every page that checks a secret.
 */
export async function confirmEmailVerification(deps: OperationDeps, input: { token: string; address: string }): Promise<OperationRecord> {
  const attempt = await beginSignInAttempt(deps.db, "site-email-verification", { address: input.address });
  const token = input.token;
  const operationId = await withTransaction(deps.db, async (tx) => {
    const { rows } = await tx.sql.query<{ id: string; status: string; expired: boolean }>(
      "SELECT id, status, verification_expires_at < now() AS expired FROM lifecycle_operations WHERE verification_token_hash = $1 FOR UPDATE",
      [hashSecret(token)],
    );
    const op = rows[0];
    if (!op) throw new AppError("not_found", "unknown or already used verification link");
    if (op.status !== "verification_pending") throw new AppError("identity_conflict", `this change is ${op.status}`);
    if (op.expired) {
      await tx.sql.query("UPDATE lifecycle_operations SET status = 'expired', updated_at = now() WHERE id = $1", [op.id]);
    } else {
      await tx.sql.query("UPDATE lifecycle_operations SET status = 'queued', verification_token_hash = NULL, authorized_by = 'verification', updated_at = now() WHERE id = $1", [op.id]);
      await deps.queue.enqueue(tx, QUEUES.lifecycle, { operationId: op.id }, op.id);
    }
    return op.id;
  });
  await attempt.succeeded();
  return getOperationById(deps.db, operationId);
}

/** Verification links not used in time expire (every operation by the periodic sweep; one operation when it is read). */
export async function expireStaleVerifications(db: Database, operationId?: string): Promise<number> {
  const { rowCount } = await db.sql.query(
    `UPDATE lifecycle_operations SET status = 'expired', verification_token_hash = NULL, updated_at = now()
     WHERE status = 'verification_pending' AND verification_expires_at < now() AND ($1::text IS NULL OR id = $1)`,
    [operationId ?? null],
  );
  return rowCount ?? 0;
}

/** A fresh verification token for an operation awaiting verification; only its hash is stored. */
export async function createVerificationToken(db: Database, operationId: string): Promise<string | undefined> {
  const token = newSecretToken(24);
  const { rowCount } = await db.sql.query("UPDATE lifecycle_operations SET verification_token_hash = $2, updated_at = now() WHERE id = $1 AND status = 'verification_pending'", [
    operationId,
    hashSecret(token),
  ]);
  return rowCount === 1 ? token : undefined;
}

export async function getOperation(db: Database, integration: ResolvedIntegration, operationId: string): Promise<OperationRecord> {
  await expireStaleVerifications(db, operationId);
  const op = await findOperation(db, "o.id = $1 AND o.integration_id = $2", [operationId, integration.id]);
  if (!op) throw new AppError("not_found", `operation ${operationId} not found`);
  return op;
}

export async function getOperationById(db: Database, operationId: string): Promise<OperationRecord> {
  const op = await findOperation(db, "o.id = $1", [operationId]);
  if (!op) throw new AppError("not_found", `operation ${operationId} not found`);
  return op;
}

/** A user's lifecycle operations, newest first (the console's user page). */
export async function listUserOperations(db: Database, integration: ResolvedIntegration, externalUserId: string, limit = 50): Promise<OperationRecord[]> {
  return selectOperations(db, "o.integration_id = $1 AND u.external_user_id = $2 ORDER BY o.created_at DESC, o.id DESC LIMIT $3", [integration.id, externalUserId, limit]);
}

async function findOperation(db: Database, where: string, values: unknown[]): Promise<OperationRecord | undefined> {
  return (await selectOperations(db, where, values))[0];
}

async function selectOperations(db: Database, where: string, values: unknown[]): Promise<OperationRecord[]> {
  const { rows } = await db.sql.query<{
    id: string;
    type: OperationType;
    status: OperationStatus;
    error_code: string | null;
    slug: string;
    external_user_id: string;
    created_at: Date;
    updated_at: Date;
    completed_at: Date | null;
  }>(
    `SELECT o.id, o.type, o.status, o.error_code, i.slug, u.external_user_id, o.created_at, o.updated_at, o.completed_at
     FROM lifecycle_operations o JOIN partner_users u ON u.id = o.partner_user_id JOIN integrations i ON i.id = o.integration_id
     WHERE ${where}`,
    values,
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    status: row.status,
    errorCode: row.error_code,
    integration: row.slug,
    externalUserId: row.external_user_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  }));
}

/** An override's reason is read later in the audit log: "x" or "ok" tells nobody why. */
export const MIN_OVERRIDE_REASON_LENGTH = 10;

/**
 * An audited staff override of a user's profile (spec 3.3): applies a name-only change, or
 * an email change without verification, to a pre-existing account. Recorded in the audit
 * log with who did it and why; the partner sees only the operation.
 */
export async function applyProfileOverride(
  deps: OperationDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
  input: { email?: string | undefined; name?: string | undefined; actor: string; reason: string },
): Promise<OperationRecord> {
  const reason = input.reason.trim();
  if (reason.length < MIN_OVERRIDE_REASON_LENGTH) {
    throw new AppError("invalid_request", `reason: an override needs a reason of at least ${MIN_OVERRIDE_REASON_LENGTH} characters for the audit log`);
  }
  const id = await requestProfileChange(deps, integration, externalUserId, {
    email: input.email,
    name: input.name,
    override: { actor: input.actor, reason },
  });
  // Audited in the operation's own transaction (requestProfileChange), with the fields that change.
  return getOperationById(deps.db, id);
}
