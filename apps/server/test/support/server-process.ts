import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { TEST_SECRET_KEY } from "@mga/core/testing";

/** How every start path starts the built server: its node flags (node-flags.json), then dist/main.js. */
export const RUN_SERVER = path.resolve(import.meta.dirname, "../../run-server.sh");

/** A command that starts the server (it may exec it, or start it as a descendant). */
export interface Launch {
  command: string;
  args: string[];
  cwd?: string;
}

/** The built server (`dist/main.js`) in a process of its own, as a deploy runs it, on a test's database. */
export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Its JSON log lines so far. */
  logs: string[];
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export async function startServerProcess(options: {
  databaseUrl: string;
  upstreamUrl: string;
  env?: Record<string, string>;
  launch?: Launch;
}): Promise<ServerProcess> {
  const launch = options.launch ?? { command: RUN_SERVER, args: [] };
  const child = spawn(launch.command, launch.args, {
    cwd: launch.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: options.databaseUrl,
      SECRET_KEY: TEST_SECRET_KEY,
      PORT: "0",
      ADMIN_API_PORT: "0",
      UPSTREAM_CHAT_URL: options.upstreamUrl,
      MGA_PRINT_BANNER: "0",
      LOG_LEVEL: "info",
      NODE_ENV: "production",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let buffered = "";
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${logs.join("\n")}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => logs.push(chunk.toString()));
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        logs.push(line);
        const entry = JSON.parse(line) as { message?: string; base_url?: string };
        if (entry.message === "listening" && entry.base_url) {
          clearTimeout(timer);
          resolve(entry.base_url);
        }
      }
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening: ${logs.join("\n")}`)));
  });
  return { baseUrl, child, logs, exited };
}

/**
 * A real upstream chat service (docs/upstream-protocol.md) on a port of its own: each answer is
 * `fragments` content events `gapMs` apart, then complete. `calls` counts the requests, `open`
 * the answers still being sent.
 */
export async function startPacedUpstream(options: {
  fragments: number;
  gapMs: number;
}): Promise<{ url: string; calls: number; open: number; text: string; close(): Promise<void> }> {
  const text = Array.from({ length: options.fragments }, (_, i) => `part ${i}. `);
  const state = { url: "", calls: 0, open: 0, text: text.join(""), close: async () => {} };
  const server: Server = createServer((req, res) => {
    state.calls += 1;
    state.open += 1;
    req.resume();
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    let next = 0;
    const timer = setInterval(() => {
      if (next < text.length) res.write(`data: ${JSON.stringify({ type: "content", content: text[next++] })}\n\n`);
      else {
        clearInterval(timer);
        res.end(`data: ${JSON.stringify({ type: "complete", metadata: { tokens_used: 9 } })}\n\n`);
      }
    }, options.gapMs);
    res.on("close", () => {
      clearInterval(timer);
      state.open -= 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return state;
}
