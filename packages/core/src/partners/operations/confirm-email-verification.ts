import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors/app-error";
import { hashSecret } from "../../ids/secret-token";
import { QUEUES } from "../../jobs/job-queue";
import { beginSignInAttempt } from "../../sign-ins/sign-in-throttle";
import { getOperationById } from "./get-operation";
import type { OperationDeps } from "./operation-deps";
import type { OperationRecord } from "./operation-record";

/**
 * The new address confirmed an email change (its link's page posts the token): the change is
 * applied by the worker. Throttled per client address, like every page that checks a secret.
 */
export async function confirmEmailVerification(
  deps: OperationDeps,
  input: { token: string; address: string },
): Promise<OperationRecord> {
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
      await tx.sql.query("UPDATE lifecycle_operations SET status = 'expired', updated_at = now() WHERE id = $1", [
        op.id,
      ]);
    } else {
      await tx.sql.query(
        "UPDATE lifecycle_operations SET status = 'queued', verification_token_hash = NULL, authorized_by = 'verification', updated_at = now() WHERE id = $1",
        [op.id],
      );
      await deps.queue.enqueue(tx, QUEUES.lifecycle, { operationId: op.id }, op.id);
    }
    return op.id;
  });
  await attempt.succeeded();
  return getOperationById(deps.db, operationId);
}
