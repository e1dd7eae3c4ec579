import { runThroughput } from "./autocannon-round";
import { runBurst, runRequests } from "./http-client-load";
import type { LoadJob } from "./load-jobs";

/**
 * The bench's load generator, a process of its own (load-process.ts forks it): it shares no
 * event loop, heap or allocator with the servers, the upstream stand-in or the bench, so what
 * caps a round is the server measured, or this process, whose ceiling the bench prints (the
 * bare handler's rate). Takes jobs over IPC, one at a time, and answers each with its result;
 * exits when the bench disconnects.
 */
export type GeneratorRequest = { id: number; job: LoadJob };
export type GeneratorAnswer = { id: number; result: unknown } | { id: number; error: string };

let queue = Promise.resolve();
process.on("message", ({ id, job }: GeneratorRequest) => {
  queue = queue.then(async () => {
    try {
      const result =
        job.kind === "throughput"
          ? await runThroughput(job)
          : job.kind === "burst"
            ? await runBurst(job)
            : await runRequests(job);
      process.send?.({ id, result } satisfies GeneratorAnswer);
    } catch (error) {
      process.send?.({
        id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies GeneratorAnswer);
    }
  });
});
process.on("disconnect", () => process.exit(0));
