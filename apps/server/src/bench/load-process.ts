import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import type { GeneratorAnswer, GeneratorRequest } from "./load-generator";
import type { LoadJob, LoadResult } from "./load-jobs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The built generator: beside this module in dist/, or dist/'s when this runs from the sources (tests). */
const GENERATOR =
  [path.join(HERE, "load-generator.js"), path.join(HERE, "../../dist/load-generator.js")].find((file) =>
    existsSync(file),
  ) ?? path.join(HERE, "load-generator.js");

/** A load generator process (load-generator.ts): runs the jobs it is given one after another. */
export interface LoadGenerator {
  run<J extends LoadJob>(job: J): Promise<LoadResult<J>>;
  stop(): Promise<void>;
}

/**
 * Forks a load generator. One per bench run (starting Node and loading autocannon takes about a
 * second on a busy machine, which a fork per round would add to every round); jobs meant to run
 * side by side (the soak's mixed load) each need a generator of their own.
 */
export function startLoadGenerator(): LoadGenerator {
  // No flags of the bench's own (execArgv), and only the streams it needs.
  const child: ChildProcess = fork(GENERATOR, [], { execArgv: [], stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  let next = 0;
  let exited: Error | undefined;
  child.on("message", (answer: GeneratorAnswer) => {
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if ("error" in answer) waiting?.reject(new Error(`the load generator failed: ${answer.error}`));
    else waiting?.resolve(answer.result);
  });
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = new Error(`the load generator exited (${signal ?? code})`);
      for (const waiting of pending.values()) waiting.reject(exited);
      pending.clear();
      resolve();
    }),
  );
  return {
    run<J extends LoadJob>(job: J) {
      if (exited) return Promise.reject(exited);
      const id = ++next;
      return new Promise<LoadResult<J>>((resolve, reject) => {
        pending.set(id, { resolve: (result) => resolve(result as LoadResult<J>), reject });
        child.send({ id, job } satisfies GeneratorRequest);
      });
    },
    async stop() {
      if (!exited) child.disconnect();
      await exit;
    },
  };
}

/** One job in a generator of its own, stopped after it. */
export async function runLoad<J extends LoadJob>(job: J): Promise<LoadResult<J>> {
  const generator = startLoadGenerator();
  try {
    return await generator.run(job);
  } finally {
    await generator.stop();
  }
}
