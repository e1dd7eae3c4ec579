import type { Database } from "../../db/database";
import { hashSecret, newSecretToken } from "../../ids/secret-token";
import { QUEUES, type JobQueue } from "../../jobs/job-queue";

/** How long the new address has to confirm an email change before the operation expires. */
export const VERIFICATION_HOURS = 24;

/**
 * The worker creates the link's token (only its hash is stored) and sends it, so no secret
 * ever sits in a job's data or a response.
 */
export async function enqueueVerification(deps: { queue: JobQueue }, db: Database, operationId: string): Promise<void> {
  await deps.queue.enqueue(db, QUEUES.lifecycle, { operationId, sendVerification: true }, `${operationId}:verify`);
}

/** A fresh verification token for an operation awaiting verification; only its hash is stored. */
export async function createVerificationToken(db: Database, operationId: string): Promise<string | undefined> {
  const token = newSecretToken(24);
  const { rowCount } = await db.sql.query(
    "UPDATE lifecycle_operations SET verification_token_hash = $2, updated_at = now() WHERE id = $1 AND status = 'verification_pending'",
    [operationId, hashSecret(token)],
  );
  return rowCount === 1 ? token : undefined;
}
