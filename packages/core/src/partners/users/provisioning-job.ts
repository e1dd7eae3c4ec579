import { withTransaction } from "../../db/transaction";
import { QUEUES } from "../../jobs/job-queue";
import { recordUserEvent } from "../../webhooks/partner-events";
import type { ResolvedIntegration } from "../integrations/integrations";
import { completeProvisioning } from "./complete-provisioning";
import type { DirectoryDeps } from "./directory-deps";
import { readStoredUser } from "./stored-user";

export interface ProvisioningJob {
  integrationId: string;
  slug: string;
  externalUserId: string;
}

/** Provisioning left pending is retried in the background (when there is a queue). */
export async function retryProvisioningLater(
  deps: DirectoryDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
): Promise<void> {
  const job: ProvisioningJob = { integrationId: integration.id, slug: integration.slug, externalUserId };
  await deps.queue?.enqueue(deps.db, QUEUES.provisioning, job, `${integration.id}:${externalUserId}`);
}

/** Background retry of a provisioning left pending; the last attempt marks it failed. */
export async function runProvisioningJob(
  deps: DirectoryDeps,
  job: ProvisioningJob,
  attempt: { last: boolean },
): Promise<void> {
  const [provisioned] = await completeProvisioning(deps, [
    await readStoredUser(deps.db, job.integrationId, job.externalUserId),
  ]);
  if (provisioned) return;
  if (!attempt.last) throw new Error("provisioning still incomplete");
  await withTransaction(deps.db, async (tx) => {
    const failed = await tx.sql.query<{ id: string }>(
      "UPDATE partner_users SET provisioning_status = 'failed', updated_at = now() WHERE integration_id = $1 AND external_user_id = $2 AND provisioning_status = 'pending' RETURNING id",
      [job.integrationId, job.externalUserId],
    );
    if (failed.rows[0]) await recordUserEvent(tx, "user.provisioning_failed", failed.rows[0].id);
  });
}
