// @mga/core/jobs: what the rest of the service may use of this area; everything else is internal.
export { JobQueue, type QueueDepth } from "./job-queue";
export { startWorkers } from "./workers";
