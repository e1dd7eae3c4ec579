import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LoadJob, LoadResult } from "./load-jobs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The built generator: beside this module in dist/, or dist/'s when this runs from the sources (tests). */
const GENERATOR = [path.join(HERE, "load-generator.js"), path.join(HERE, "../../dist/load-generator.js")].find((file) => existsSync(file)) ?? path.join(HERE, "load-generator.js");

/**
 * Runs one load job in a fresh load generator process (load-generator.ts) and resolves with
 * its result. A process per job: no round inherits another's sockets, heap or JIT state.
 * Jobs started together (the soak's mixed load) run in parallel processes.
 */
export function runLoad<J extends LoadJob>(job: J): Promise<LoadResult<J>> {
  return new Promise((resolve, reject) => {
    // No flags of the bench's own (execArgv) and only the streams it needs.
    const child = fork(GENERATOR, [], { execArgv: [], stdio: ["ignore", "ignore", "inherit", "ipc"] });
    let result: LoadResult<J> | undefined;
    child.once("message", (message) => (result = message as LoadResult<J>));
    child.once("error", reject);
    child.once("exit", (code, signal) => (result === undefined ? reject(new Error(`the load generator exited (${signal ?? code}) without a result for ${job.kind} ${job.url}`)) : resolve(result)));
    child.send(job);
  });
}
