import type { Database } from "../../db/database";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import { QUEUES } from "../../jobs/job-queue";
import { announceLaunchEligibility } from "../../webhooks/partner-events";
import type { ResolvedIntegration } from "../integrations/integrations";
import type { OperationDeps } from "./operation-deps";
import type { OperationAuthority, OperationStatus, OperationType } from "./operation-values";
import { VERIFICATION_HOURS } from "./verification-link";

/*
 * Lifecycle operations (spec 2.10, 3.2, 3.3). State machine:
 *
 *   queued ──▶ processing ──▶ completed
 *      │            └──────▶ failed        (retries exhausted; error_code says why)
 *      └──▶ cancelled                      (superseded: the user is being deleted)
 *   verification_pending ──▶ processing    (the new address was confirmed)
 *          ├──▶ expired                    (not confirmed within 24 hours)
 *          └──▶ cancelled                  (superseded by another profile change or a deletion)
 *
 * Every request (request-deletion.ts, request-reprovision.ts, request-profile-change.ts)
 * creates the operation, changes what must change at once, and enqueues the rest, in one
 * transaction (withLockedUser, insertOperation below); the worker (run-operation.ts) finishes it.
 */

export interface LockedUser {
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
export async function withLockedUser<T>(
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

export async function insertOperation(
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
  await tx.sql.query("UPDATE partner_users SET last_operation_id = $2, updated_at = now() WHERE id = $1", [
    input.userId,
    id,
  ]);
  return id;
}
