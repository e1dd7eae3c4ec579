import { runImportJob, type ImportJobData } from "../partners/imports/imports";
import { runLifecycleJob, type LifecycleJob } from "../partners/operations/run-operation";
import type { DirectoryDeps } from "../partners/users/directory-deps";
import { runProvisioningJob, type ProvisioningJob } from "../partners/users/provisioning-job";
import { runSiteAccountSyncJob, type SiteAccountSyncJob } from "../partners/users/site-account-sync";
import { deliverWebhook } from "../webhooks/deliver";
import { startEventDispatch, type DeliveryJob } from "../webhooks/dispatch-events";
import type { WebhookOptions } from "../webhooks/webhook-options";
import { QUEUES, type JobQueue } from "./job-queue";

/**
 * Which handler finishes which queue's jobs. Every server instance runs them; each job runs once.
 * With `webhooks`, this instance also fans events out to endpoints and delivers them.
 */
export async function startWorkers(
  queue: JobQueue,
  deps: DirectoryDeps & { webhooks?: WebhookOptions },
): Promise<void> {
  await queue.work<LifecycleJob>(QUEUES.lifecycle, (job, attempt) => runLifecycleJob({ ...deps, queue }, job, attempt));
  // Imported rows left pending get the same background retry as a PUT.
  await queue.work<ImportJobData>(QUEUES.imports, (job, attempt) => runImportJob({ ...deps, queue }, job, attempt));
  await queue.work<ProvisioningJob>(QUEUES.provisioning, (job, attempt) => runProvisioningJob(deps, job, attempt));
  await queue.work<SiteAccountSyncJob>(QUEUES.siteAccountSync, (job, attempt) =>
    runSiteAccountSyncJob(deps, job, attempt),
  );
  const webhooks = deps.webhooks;
  if (webhooks) {
    await queue.work<DeliveryJob>(QUEUES.webhooks, (job) => deliverWebhook(deps.db, queue, webhooks, job));
    queue.onStop(startEventDispatch(deps.db, queue, webhooks));
  }
}
