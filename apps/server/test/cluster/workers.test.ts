import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { revokeApiKey } from "@mga/core/keys";
import { createStaff } from "@mga/core/staff";

import { startPacedUpstream, startServerProcess, type ServerProcess } from "../support/server-process";
import { staffClient } from "../support/staff-client";
import { startTestApp, type TestApp } from "../support/test-app";
import { readSse } from "../support/upstream-mock";

/**
 * WORKERS=2 (issue 27, "Every core"): the built server as a deploy runs it, a primary and two
 * node:cluster workers on one port, over real HTTP and the test's PostgreSQL (the embedded one
 * for the drain). Which worker answered a request is read from the JSON log line of its
 * X-Request-Id (`"message":"request"`, with the worker's `pid`).
 */
const STAFF = { email: "ops@mga.test", password: "workers test password 1" };
let upstream: Awaited<ReturnType<typeof startPacedUpstream>>;
let app: TestApp;
beforeAll(async () => {
  upstream = await startPacedUpstream({ fragments: 40, gapMs: 50 });
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

type LogLine = Record<string, unknown> & { message?: string };

function logLines(server: ServerProcess): LogLine[] {
  return server.logs.flatMap((line) => {
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      // stderr chunks (a crash's message) are kept as text by the harness.
      return [];
    }
  });
}

async function waitForLog(
  server: ServerProcess,
  matches: (line: LogLine) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<LogLine> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = logLines(server).find(matches);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no log line ${what}:\n${server.logs.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A primary with two workers, returned once both listen. */
async function startTwoWorkers(options: { databaseUrl: string; env?: Record<string, string> }): Promise<ServerProcess> {
  const server = await startServerProcess({
    databaseUrl: options.databaseUrl,
    upstreamUrl: upstream.url,
    env: { WORKERS: "2", ...options.env },
  });
  await waitForLog(server, (line) => line.message === "workers listening", "workers listening");
  return server;
}

/** The pids of the workers that answered these requests (their log lines are written as each response finishes). */
async function workersThatAnswered(server: ServerProcess, requestIds: string[]): Promise<Set<number>> {
  const pids = new Map<string, number>();
  const deadline = Date.now() + 5_000;
  for (;;) {
    for (const line of logLines(server)) {
      if (line.message === "request" && typeof line.request_id === "string")
        pids.set(line.request_id, line.pid as number);
    }
    if (requestIds.every((id) => pids.has(id)) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const missing = requestIds.filter((id) => !pids.has(id));
  expect(missing, "every request has its log line").toEqual([]);
  return new Set(requestIds.map((id) => pids.get(id) as number));
}

const workerPids = (server: ServerProcess) =>
  logLines(server)
    .filter((line) => line.message === "listening")
    .map((line) => line.pid as number);

async function getMe(baseUrl: string, key: string): Promise<{ status: number; requestId: string; body: string }> {
  const res = await fetch(`${baseUrl}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, requestId: res.headers.get("x-request-id") ?? "", body: await res.text() };
}

/** A GET over a connection of its own: the primary gives each new connection to the next worker in turn. */
function getOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error("no response in 10 s")));
    req.on("error", reject);
  });
}

/** The sum of a Prometheus counter's series whose labels include `labels`. */
function counted(exposition: string, name: string, labels: Record<string, string>): number {
  return exposition
    .split("\n")
    .filter(
      (line) =>
        line.startsWith(`${name}{`) &&
        Object.entries(labels).every(([label, value]) => line.includes(`${label}="${value}"`)),
    )
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

/** GET /v1/me over a connection of its own (no kept-alive one), which the primary gives to the next worker in turn. */
function getMeOnNewConnection(baseUrl: string, key: string): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}/v1/me`, { agent: false, headers: { Authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, requestId: String(res.headers["x-request-id"]) }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error("no response in 10 s")));
    req.on("error", reject);
  });
}

/** `count` requests, `concurrency` at a time (so over as many connections, which the primary deals out to both workers). */
async function burst(baseUrl: string, key: string, count: number, concurrency: number) {
  const results: Awaited<ReturnType<typeof getMe>>[] = [];
  for (let sent = 0; sent < count; sent += concurrency) {
    results.push(
      ...(await Promise.all(Array.from({ length: Math.min(concurrency, count - sent) }, () => getMe(baseUrl, key)))),
    );
  }
  return results;
}

describe("two workers on one port", () => {
  it(
    "share a key's rate limit exactly, and both refuse a revoked key once its notification arrives (within a second)",
    { timeout: 120_000 },
    async () => {
      const server = await startTwoWorkers({ databaseUrl: app.t.url });
      try {
        expect(new Set(workerPids(server)).size).toBe(2);
        // Well inside one minute window, so the whole burst counts against one window.
        const msIntoMinute = Date.now() % 60_000;
        if (msIntoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - msIntoMinute));
        // Under 40 a minute, leases are one token each: the limit is exact, not within a slice.
        const limited = await app.newKey({ rateLimitPerMinute: 30 });
        const results = await burst(server.baseUrl, limited.key, 150, 15);
        expect(results.filter((res) => res.status !== 200 && res.status !== 429)).toEqual([]);
        expect(results.filter((res) => res.status === 200)).toHaveLength(30);
        expect(
          await workersThatAnswered(
            server,
            results.filter((res) => res.status === 200).map((res) => res.requestId),
          ),
        ).toEqual(new Set(workerPids(server)));

        // Both workers' caches hold the key, then it is revoked (as the CLI or another instance would).
        const revoked = await app.newKey();
        const warm = await burst(server.baseUrl, revoked.key, 20, 10);
        expect(warm.map((res) => res.status)).toEqual(Array(20).fill(200));
        expect(
          await workersThatAnswered(
            server,
            warm.map((res) => res.requestId),
          ),
        ).toEqual(new Set(workerPids(server)));
        // Revoked elsewhere (as through the CLI or another instance), the change reaches each worker
        // by its LISTEN connection, as it reaches separate instances: within a second (key-cache.test.ts).
        await revokeApiKey(app.t.db, revoked.id);
        const revokedAt = Date.now();
        // Each worker hears of it on its own connection, so on a busy machine one may still serve
        // the key for some milliseconds after the other refuses it (CI saw 200s after a first 401).
        // Within a second of the revocation, both refuse every request. Requests answered before
        // that are counted in the metrics below too.
        let servedAfterRevocation = 0;
        let after: Awaited<ReturnType<typeof burst>>;
        for (;;) {
          after = await burst(server.baseUrl, revoked.key, 20, 10);
          const served = after.filter((res) => res.status === 200).length;
          if (served === 0) break;
          servedAfterRevocation += served;
          expect(Date.now() - revokedAt).toBeLessThan(1_000);
        }
        expect(after.map((res) => res.status)).toEqual(Array(20).fill(401));
        expect(JSON.parse(after[0]?.body ?? "{}")).toMatchObject({
          error: { code: "unauthorized", message: "this API key has been revoked" },
        });
        expect(
          await workersThatAnswered(
            server,
            after.map((res) => res.requestId),
          ),
        ).toEqual(new Set(workerPids(server)));

        // Whichever worker a scrape reaches, GET /metrics counts both workers' requests (the primary aggregates them).
        const adminUrl = String(logLines(server).find((line) => line.message === "listening")?.admin_api_url);
        for (let scrape = 0; scrape < 4; scrape += 1) {
          const text = await getOnNewConnection(`${adminUrl}/metrics`);
          expect(text.status).toBe(200);
          expect(counted(text.body, "mga_http_requests_total", { route: "/v1/me", status: "200" })).toBe(
            30 + 20 + servedAfterRevocation,
          );
          expect(counted(text.body, "mga_http_requests_total", { route: "/v1/me", status: "429" })).toBe(150 - 30);
        }

        server.child.kill("SIGTERM");
        expect(await server.exited).toBe(0);
      } finally {
        server.child.kill("SIGKILL");
      }
    },
  );

  it(
    "refuse a key revoked through either worker's console on the very next request, without waiting for its notification",
    { timeout: 120_000 },
    async () => {
      const server = await startTwoWorkers({ databaseUrl: app.t.url });
      // The key caches' LISTEN connections are stopped (SIGSTOP to their PostgreSQL backends), so
      // no notification reaches any worker: what a worker knows of the revocation, it knows from
      // the worker that made it.
      const listeners = (
        await app.t.db.sql.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = 'mga key cache' AND datname = current_database()",
        )
      ).rows.map((row) => row.pid);
      try {
        expect(listeners.length).toBeGreaterThanOrEqual(2);
        await createStaff(app.t.db, { ...STAFF, role: "admin", actor: "test" });
        const adminUrl = String(logLines(server).find((line) => line.message === "listening")?.admin_api_url);
        const console = staffClient(() => adminUrl);
        const session = await console.signIn(STAFF.email, STAFF.password);
        const revoked = await app.newKey();
        const warm = await burst(server.baseUrl, revoked.key, 20, 10);
        expect(warm.map((res) => res.status)).toEqual(Array(20).fill(200));
        expect(
          await workersThatAnswered(
            server,
            warm.map((res) => res.requestId),
          ),
        ).toEqual(new Set(workerPids(server)));

        for (const pid of listeners) process.kill(pid, "SIGSTOP");
        expect((await console.mutate(session, "staff.keys.revoke", { id: revoked.id })).status).toBe(200);
        const after = await burst(server.baseUrl, revoked.key, 20, 10);
        expect(after.map((res) => res.status)).toEqual(Array(20).fill(401));
        expect(
          await workersThatAnswered(
            server,
            after.map((res) => res.requestId),
          ),
        ).toEqual(new Set(workerPids(server)));
      } finally {
        for (const pid of listeners) process.kill(pid, "SIGCONT");
        server.child.kill("SIGTERM");
        await server.exited;
      }
    },
  );

  /*
   * "Accepted": a request whose response has begun (the client has its status line) completes
   * with that response; one that never got a response (its connection refused or reset when
   * the worker died) is, being idempotent, retried by the client, as a client behind a load
   * balancer does on a connection error, and then succeeds. No request may end in an error
   * status or a cut body, and no retry may be refused.
   */
  it(
    "lose no accepted request when one worker is killed (SIGKILL); the primary replaces it",
    { timeout: 120_000 },
    async () => {
      const server = await startTwoWorkers({ databaseUrl: app.t.url });
      try {
        const [victim] = workerPids(server);
        const { key } = await app.newKey({ rateLimitPerMinute: 100_000 });
        let running = true;
        const outcomes: Array<{ status: number; requestId: string; attempts: number }> = [];
        const connectionErrors: string[] = [];
        const client = async () => {
          while (running) {
            for (let attempt = 1; ; attempt += 1) {
              let res: Response;
              try {
                res = await fetch(`${server.baseUrl}/v1/me`, {
                  headers: { Authorization: `Bearer ${key}` },
                  signal: AbortSignal.timeout(5_000),
                });
              } catch (error) {
                // No response: the connection went with the worker. Retried.
                connectionErrors.push(String((error as { cause?: unknown }).cause ?? error));
                if (attempt === 20) throw new Error(`gave up after ${attempt} attempts`, { cause: error });
                await new Promise((resolve) => setTimeout(resolve, 50));
                continue;
              }
              // A response has begun: it must complete, whole.
              const body = (await res.json()) as { request_id?: string };
              outcomes.push({ status: res.status, requestId: body.request_id ?? "", attempts: attempt });
              break;
            }
          }
        };
        const clients = Array.from({ length: 8 }, () => client());
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const beforeKill = outcomes.length;
        process.kill(victim as number, "SIGKILL");
        const exited = await waitForLog(
          server,
          (line) => line.message === "worker exited" && line.worker_pid === victim,
          "worker exited",
        );
        expect(exited).toMatchObject({ worker: "primary", signal: "SIGKILL" });
        // Replaced (after the backoff of restart-backoff.ts); its replacement listens and takes requests.
        await waitForLog(
          server,
          (line) => line.message === "worker replaced" && line.worker_id === exited.worker_id,
          "worker replaced",
        );
        const replacement = await waitForLog(
          server,
          (line) =>
            line.message === "listening" &&
            !workerPids(server)
              .slice(0, 2)
              .includes(line.pid as number),
          "listening of a replacement",
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
        running = false;
        await Promise.all(clients);

        expect(beforeKill).toBeGreaterThan(0);
        expect(outcomes.filter((outcome) => outcome.status !== 200)).toEqual([]);
        // The kill did cut connections (what the retries are for), and every retried request succeeded.
        expect(connectionErrors.length).toBeGreaterThan(0);
        expect(outcomes.some((outcome) => outcome.attempts > 1)).toBe(true);
        // The clients' kept-alive connections all went to the survivor meanwhile; new connections are dealt to both again.
        const survivor = workerPids(server).find((pid) => pid !== victim && pid !== replacement.pid);
        const fresh = await Promise.all(Array.from({ length: 10 }, () => getMeOnNewConnection(server.baseUrl, key)));
        expect(fresh.map((res) => res.status)).toEqual(Array(10).fill(200));
        expect(
          await workersThatAnswered(
            server,
            fresh.map((res) => res.requestId),
          ),
        ).toEqual(new Set([survivor, replacement.pid]));

        server.child.kill("SIGTERM");
        expect(await server.exited).toBe(0);
      } finally {
        server.child.kill("SIGKILL");
      }
    },
  );
});

describe("a primary whose workers cannot run", () => {
  it(
    "refuses at start more workers than the database has connections for, with the numbers",
    { timeout: 60_000 },
    async () => {
      // The test cluster allows 200 connections; 10 workers with the default pool need 230.
      const start = startServerProcess({ databaseUrl: app.t.url, upstreamUrl: upstream.url, env: { WORKERS: "10" } });
      await expect(start).rejects.toThrow(
        /exited \(1\) before listening[\s\S]*WORKERS=10 with DB_POOL_MAX=10 needs up to 230 PostgreSQL connections and the database allows 200[\s\S]*at most 8 fit/,
      );
    },
  );

  it(
    "stops with exit code 1 when a worker cannot listen (its port taken), rather than restarting it forever",
    { timeout: 60_000 },
    async () => {
      const taken = http.createServer();
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
      try {
        const port = String((taken.address() as { port: number }).port);
        const start = startServerProcess({
          databaseUrl: app.t.url,
          upstreamUrl: upstream.url,
          env: { WORKERS: "2", PORT: port },
        });
        await expect(start).rejects.toThrow(
          /exited \(1\) before listening[\s\S]*EADDRINUSE[\s\S]*"message":"failed to start","worker":"primary"/,
        );
      } finally {
        taken.close();
      }
    },
  );
});

describe("SIGTERM to the primary (embedded PostgreSQL)", () => {
  it(
    "drains both workers: every open stream ends whole, then the database stops and the primary exits 0",
    { timeout: 180_000 },
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "mga-workers-"));
      // Running as root, PostgreSQL runs as the `postgres` user, which must reach the data directory.
      chmodSync(dataDir, 0o755);
      try {
        const server = await startTwoWorkers({
          databaseUrl: "",
          env: { DATA_DIR: dataDir, SECRET_KEY: "", SHUTDOWN_DRAIN_MS: "20000" },
        });
        const pids = workerPids(server);
        // The primary started the one cluster; both workers joined it.
        expect(
          logLines(server).filter(
            (line) => line.message === "listening" && String(line.database).startsWith("embedded PostgreSQL"),
          ),
        ).toHaveLength(2);
        const cli = (...args: string[]) =>
          JSON.parse(
            execFileSync(process.execPath, [path.resolve(import.meta.dirname, "../../dist/cli.js"), ...args], {
              env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, NODE_ENV: "production" },
              encoding: "utf8",
            }),
          );
        const org = cli("org:create", "--name", "Workers Lending");
        cli(
          "tenant:configure",
          "--org",
          org.id,
          "--file",
          path.resolve(import.meta.dirname, "../../../../examples/tenant.json"),
        );
        const { key } = cli("key:create", "--org", org.id, "--name", "workers", "--scopes", "chat:read,chat:write");

        // Four streams over four connections: the primary deals them out to both workers.
        const streams = await Promise.all(
          Array.from({ length: 4 }, async () => {
            const res = await fetch(`${server.baseUrl}/v1/messages`, {
              method: "POST",
              headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
              body: JSON.stringify({ message: "Tell me in parts", user: { external_user_id: "lo-1" }, stream: true }),
            });
            expect(res.status).toBe(200);
            return { requestId: res.headers.get("x-request-id") ?? "", frames: readSse(res) };
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        server.child.kill("SIGTERM");
        for (const stream of streams) {
          const { frames } = await stream.frames;
          expect(
            frames
              .filter((frame) => frame.type === "content")
              .map((frame) => frame.content)
              .join(""),
          ).toBe(upstream.text);
          expect(frames.at(-1)?.type).toBe("public_api_complete");
        }
        expect(await server.exited).toBe(0);
        expect(
          await workersThatAnswered(
            server,
            streams.map((stream) => stream.requestId),
          ),
        ).toEqual(new Set(pids));
        const stopped = logLines(server).filter((line) => line.message === "stopped");
        expect(new Set(stopped.map((line) => line.worker))).toEqual(new Set([1, 2, "primary"]));
        // The primary's own "stopped" is last: after both workers, with the database stopped.
        expect(stopped.at(-1)?.worker).toBe("primary");
        expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
        expect(server.logs.join("\n")).not.toContain("not written");
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
