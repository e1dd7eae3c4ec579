import type { JobQueue } from "../../jobs/job-queue";
import type { DirectoryDeps } from "../users/directory-deps";

/** What a lifecycle operation works with: a user's systems, and the queue its worker takes the rest from. */
export interface OperationDeps extends DirectoryDeps {
  queue: JobQueue;
}
