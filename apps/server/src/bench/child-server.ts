import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

import { freePort } from "@mga/core/db";

import { cpuSeconds, residentBytes } from "./process-tree";

/**
 * A server measured in a process of its own, so that its resident memory is its own and not
 * the bench's (the load generator, the upstream and the bare handler live elsewhere).
 */
export interface ChildServer {
  url: string;
  /** Resident set size now, in bytes (/proc/<pid>/status VmRSS), the process's and its descendants' (cluster workers). */
  rss(): number;
  /** CPU seconds used so far by the process and its descendants (cluster workers). */
  cpuSeconds(): number;
  /** Samples the RSS every 100 ms until the returned function is called, which gives the highest seen. */
  samplePeak(): () => number;
  /** Writes a heap snapshot into `dir` (needs `heapSnapshotDir` at start); resolves with its path. */
  heapSnapshot(): Promise<string>;
  stop(): Promise<void>;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The built files: this module's own folder in dist/, or dist/ when this runs from the sources (tests). */
const DIST = existsSync(path.join(HERE, "bare-server.js")) ? HERE : path.join(HERE, "../../dist");
/** This checkout's apps/server. */
const SERVER_DIR = path.join(DIST, "..");
/** A checkout's service V8 flags (this one's are also given to the bare proxy: their memory is compared). */
const serviceFlags = (serverDir = SERVER_DIR) =>
  (JSON.parse(readFileSync(path.join(serverDir, "node-flags.json"), "utf8")) as { flags: string[] }).flags;

/**
 * How a checkout's service starts: apps/server/run-server.sh (its node flags, then
 * dist/main.js), or for a build older than that script as its bench started it.
 */
function serviceCommand(serverDir: string, nodeOptions: string[]): [string, string[]] {
  const runServer = path.join(serverDir, "run-server.sh");
  if (existsSync(runServer)) return [runServer, nodeOptions];
  return [process.execPath, [...serviceFlags(serverDir), ...nodeOptions, path.join(serverDir, "dist/main.js")]];
}

/** What the bench runs in a process of its own: the service, and its references (bare-server.ts, bare-proxy.ts). */
export type ChildEntry = "main" | "bare-server" | "bare-proxy";

export interface ChildServerOptions {
  heapSnapshotDir?: string | undefined;
  /** The service only: run it with WORKERS=<n> (node:cluster), for a 1-vs-n-workers comparison. */
  workers?: number | undefined;
  /** A file the process's stdout (the service's JSON log lines) is appended to; unset, it is dropped. */
  logFile?: string | undefined;
  /** The service only: another built checkout's, started as that checkout starts it (compare-builds.ts). */
  checkout?: string | undefined;
}

/** Starts `dist/<entry>.js` with `env` (PORT chosen here) and waits until it answers HTTP. */
export async function startChildServer(
  entry: ChildEntry,
  env: Record<string, string>,
  options: ChildServerOptions = {},
): Promise<ChildServer> {
  const port = await freePort();
  // The service starts as it does in production (its flags come with it); the bare handler with
  // no flags, the bare proxy with the service's.
  const nodeOptions = options.heapSnapshotDir ? ["--heapsnapshot-signal=SIGUSR2"] : [];
  const flags = entry === "bare-proxy" ? serviceFlags() : [];
  const [command, args] =
    entry === "main"
      ? serviceCommand(options.checkout ? path.join(options.checkout, "apps/server") : SERVER_DIR, nodeOptions)
      : [process.execPath, [...flags, ...nodeOptions, path.join(DIST, `${entry}.js`)]];
  const workers = entry === "main" && options.workers !== undefined ? { WORKERS: String(options.workers) } : {};
  const logFd = options.logFile ? openSync(options.logFile, "a") : undefined;
  const child = spawn(command, args, {
    // Only what the bench means to set: nothing of the caller's own configuration leaks in.
    env: {
      NODE_ENV: "production",
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      ...env,
      ...workers,
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    cwd: options.heapSnapshotDir ?? process.cwd(),
    stdio: ["ignore", logFd ?? "ignore", "inherit"],
  });
  // The child has its own copy of the descriptor.
  if (logFd !== undefined) closeSync(logFd);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilListening(child, url);
  const rss = () => residentBytes(child.pid ?? 0);
  return {
    url,
    rss,
    cpuSeconds: () => cpuSeconds(child.pid ?? 0),
    samplePeak() {
      let peak = rss();
      const timer = setInterval(() => (peak = Math.max(peak, rss())), 100);
      return () => {
        clearInterval(timer);
        return Math.max(peak, rss());
      };
    },
    async heapSnapshot() {
      const dir = options.heapSnapshotDir;
      if (!dir) throw new Error("started without a heap snapshot directory");
      const before = new Set(readdirSync(dir));
      child.kill("SIGUSR2");
      for (;;) {
        await sleep(500);
        const file = readdirSync(dir).find((name) => name.endsWith(".heapsnapshot") && !before.has(name));
        if (!file) continue;
        const size = statSync(path.join(dir, file)).size;
        await sleep(1000);
        if (size > 0 && statSync(path.join(dir, file)).size === size) return path.join(dir, file);
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000).then(() => child.kill("SIGKILL"))]);
    },
  };
}

async function waitUntilListening(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before listening`);
    try {
      await fetch(`${url}/`);
      return;
    } catch {
      await sleep(100);
    }
  }
  child.kill("SIGKILL");
  throw new Error("the server did not listen within 60 s");
}
