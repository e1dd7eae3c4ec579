import { runThroughput } from "./autocannon-round";
import { runBurst, runRequests } from "./http-client-load";
import type { LoadJob } from "./load-jobs";

/**
 * The bench's load generator, a process of its own (load-process.ts forks it once per job):
 * it shares no event loop and no CPU time slice with the servers, the upstream stand-in or the
 * bench, so what caps a round is the server measured, or this process, whose ceiling the bench
 * prints (the bare handler's rate). Takes one job over IPC, answers its result, exits.
 */
process.once("message", (job: LoadJob) => {
  const run = job.kind === "throughput" ? runThroughput(job) : job.kind === "burst" ? runBurst(job) : runRequests(job);
  run.then(
    (result) => process.send?.(result, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
