import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestDatabase, type TestDatabase } from "@mga/core/testing";

import nodeFlags from "../../node-flags.json";
import { startServerProcess } from "../support/server-process";

/**
 * Every way of starting the server applies the same node flags (node-flags.json): the same
 * build must not use more memory depending on how it was started (issue 27). Each start script
 * is run as pnpm runs it (`sh -c '<script>'` in its package's folder); the server it starts is
 * found among the script's process and its descendants, and its command line read from /proc.
 */
const ROOT = path.resolve(import.meta.dirname, "../../../..");
const MAIN = path.join("dist", "main.js");
const startScript = (dir: string) =>
  (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;

/** `pid` or its first descendant that is node running dist/main.js, with its command line (argv). */
function findServer(pid: number): { pid: number; argv: string[] } | undefined {
  const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  // A node process (not the shell running the script, whose command line names main.js too).
  if (path.basename(argv[0] ?? "") === "node" && argv.some((arg) => arg.endsWith(MAIN))) return { pid, argv };
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  for (const child of children) {
    const found = findServer(child);
    if (found) return found;
  }
  return undefined;
}

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

describe("start paths", () => {
  it.each([
    ["the root `pnpm start`", ROOT],
    ["apps/server's `pnpm start`", path.join(ROOT, "apps/server")],
  ])("%s runs the server with node-flags.json's flags", { timeout: 90_000 }, async (_label, dir) => {
    const server = await startServerProcess({
      databaseUrl: t.url,
      upstreamUrl: "http://127.0.0.1:9",
      launch: { command: "sh", args: ["-c", startScript(dir)], cwd: dir },
    });
    const found = findServer(server.child.pid ?? 0);
    try {
      expect(found, "no process running dist/main.js").toBeDefined();
      const argv = found?.argv ?? [];
      // Node options come before the script; after it they would be the script's own arguments.
      const nodeOptions = argv.slice(
        0,
        argv.findIndex((arg) => arg.endsWith(MAIN)),
      );
      for (const flag of nodeFlags.flags) expect(nodeOptions).toContain(flag);
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      // The server itself, whether the script exec'd it or runs it as a child.
      process.kill(found?.pid ?? server.child.pid ?? 0, "SIGTERM");
      await server.exited;
    }
  });
});
