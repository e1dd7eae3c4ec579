import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The repository root (apps/admin/test/support → ../../../..). */
export const ROOT = path.resolve(import.meta.dirname, "../../../..");

export interface RunningService {
  apiUrl: string;
  consoleUrl: string;
  dataDir: string;
  output: () => string;
  /** The operator CLI against the same database (`pnpm cli …`). */
  cli: (...args: string[]) => Promise<unknown>;
  stop: () => Promise<void>;
}

/**
 * Starts what the README's run command starts after its build (scripts/serve.mjs: the API on
 * an embedded PostgreSQL, then the console) and waits for the console's banner. `settings`
 * adds to the environment the run command is given (TRUST_PROXY, …).
 */
export async function startRunCommand(settings: Record<string, string> = {}): Promise<RunningService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mga-console-e2e-"));
  // Run as root, the embedded PostgreSQL drops to another user, who must reach this directory.
  chmodSync(dataDir, 0o755);
  let output = "";
  const env = {
    ...process.env,
    // 0: the run command picks free ports itself (core's freePort) and prints its URLs.
    PORT: "0",
    ADMIN_PORT: "0",
    ADMIN_API_PORT: "0",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    DATABASE_URL: "",
    ...settings,
  };
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "scripts/serve.mjs")], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const banner = (name: string) => new RegExp(`${name} is up: (http://\\S+)`).exec(output)?.[1];
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(
      () => reject(new Error(`the run command did not start within 120 s:\n${output}`)),
      120_000,
    );
    const check = setInterval(() => {
      if (banner("Staff console")) {
        clearInterval(check);
        clearTimeout(deadline);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(check);
        clearTimeout(deadline);
        reject(new Error(`the run command exited with ${child.exitCode}:\n${output}`));
      }
    }, 100);
  });
  const consoleUrl = banner("Staff console")!;
  const apiUrl = banner("Mortgage-guideline API");
  if (!apiUrl) throw new Error(`the run command printed no API URL:\n${output}`);
  const cli = (...args: string[]) =>
    new Promise<unknown>((resolve, reject) => {
      const run = spawn(process.execPath, [path.join(ROOT, "apps/server/dist/cli.js"), ...args, "--json"], {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      run.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      run.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      run.once("exit", (code) =>
        code === 0
          ? resolve(JSON.parse(stdout))
          : reject(new Error(`cli ${args[0]} failed (${code}): ${stderr}${stdout}`)),
      );
    });
  return {
    apiUrl,
    consoleUrl,
    dataDir,
    output: () => output,
    cli,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
