import { type ImportJobData, runImportJob } from "../partners/imports/imports";
import { type LifecycleJob, runLifecycleJob } from "../partners/operations/run-operation";
import { runSiteAccountSyncJob, type SiteAccountSyncJob } from "../partners/users/site-account-sync";
import { type DirectoryDeps, type ProvisioningJob, runProvisioningJob } from "../partners/users/users";
import { type JobQueue, QUEUES } from "./job-queue";

/** Which handler finishes which queue's jobs. Every server instance runs them; each job runs once. */
export async function startWorkers(queue: JobQueue, deps: DirectoryDeps): Promise<void> {
  await queue.work<LifecycleJob>(QUEUES.lifecycle, (job, attempt) => runLifecycleJob({ ...deps, queue }, job, attempt));
  // Imported rows left pending get the same background retry as a PUT.
  await queue.work<ImportJobData>(QUEUES.imports, (job, attempt) => runImportJob({ ...deps, queue }, job, attempt));
  await queue.work<ProvisioningJob>(QUEUES.provisioning, (job, attempt) => runProvisioningJob(deps, job, attempt));
  await queue.work<SiteAccountSyncJob>(QUEUES.siteAccountSync, (job, attempt) => runSiteAccountSyncJob(deps, job, attempt));
}
