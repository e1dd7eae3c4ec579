import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { mkdtempSync, chmodSync, rmSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { HttpChatUpstream } from "@mga/core/conversations";
import { migrateDatabase, openDatabase, startEmbeddedPostgres } from "@mga/core/db";
import { JobQueue } from "@mga/core/jobs";
import { createApiKey } from "@mga/core/keys";
import { createOrganization } from "@mga/core/orgs";
import { localDirectory } from "@mga/core/partners/ports";
import { serverSecrets } from "@mga/core/secrets";
import { configureTenant } from "@mga/core/tenants";
import { createApp } from "../http/create-app";
import { createLogger } from "../log";

/**
 * `pnpm bench`: measures the hot paths against a bare node:http handler, all on this
 * machine, with the upstream answering instantly. Not a test: it prints numbers.
 *   GET /v1/me                      key check + rate limit (one SQL round trip) + tRPC/OpenAPI
 *   POST /v1/messages (JSON)        + source selection, upstream call, one write
 *   stream: time to first event     until the first SSE frame (public_api_conversation)
 * Options: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 16), DATABASE_URL.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function load(job: object): Promise<{ requests: number; errors: number; rps: number; p50: number; p99: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./load-worker.js", import.meta.url), { workerData: { seconds: SECONDS, connections: CONNECTIONS, ...job } });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

async function main() {
  let dir: string | undefined;
  let url = process.env.DATABASE_URL;
  let stopDb = async () => {};
  if (!url) {
    dir = mkdtempSync(path.join(os.tmpdir(), "mga-bench-"));
    chmodSync(dir, 0o755);
    const cluster = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), database: "bench", persistent: false });
    url = cluster.url;
    stopDb = () => cluster.stop();
  }
  await migrateDatabase(url);
  const db = openDatabase(url, { secrets: serverSecrets(randomBytes(32).toString("base64url")), maxConnections: 20 });

  const org = await createOrganization(db, { name: "Bench Lending" });
  await configureTenant(db, { organizationId: org.id, config: { clientName: "Bench", enabledSources: ["fha"], baseSources: ["fha"] } });
  const { plaintext } = await createApiKey(db, { organizationId: org.id, name: "bench", scopes: ["chat:read", "chat:write", "sources:read"], rateLimitPerMinute: 100_000 });

  // An upstream that answers at once.
  const frames = [
    { type: "content", content: "FHA requires 3.5 percent down." },
    { type: "content_postprocessed", content: "FHA requires 3.5 percent down.", citations: [{ id: "c1", title: "FHA" }], sources: [] },
    { type: "complete", metadata: { tokens_used: 12 } },
  ]
    .map((event) => `data: ${JSON.stringify(event)}\n\n`)
    .join("");
  const upstreamServer = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "Content-Type": "text/event-stream" }).end(frames));
  });
  const upstreamUrl = await listen(upstreamServer);

  const queue = await JobQueue.start({ connectionString: url });
  const api = createServer();
  const apiUrl = await listen(api);
  api.on(
    "request",
    createApp({ db, upstream: new HttpChatUpstream({ url: upstreamUrl }), directory: localDirectory(db), queue, appUrl: apiUrl, logger: createLogger("silent"), publicBaseUrl: apiUrl }),
  );

  const bare = createServer((_req, res) => {
    const body = JSON.stringify({ request_id: "req_bench", ok: true });
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }).end(body);
  });
  const bareUrl = await listen(bare);

  const auth = { Authorization: `Bearer ${plaintext}` };
  const message = JSON.stringify({ message: "What is the minimum down payment for an FHA loan?", user: { external_user_id: "bench" } });
  const streamBody = JSON.stringify({ message: "What is the minimum down payment for an FHA loan?", user: { external_user_id: "bench" }, stream: true });
  const json = { ...auth, "Content-Type": "application/json" };

  console.log(`benchmark: ${SECONDS}s per target, ${CONNECTIONS} connections, ${os.cpus().length} CPUs, Node ${process.versions.node}\n`);
  const baseline = await load({ url: `${bareUrl}/`, method: "GET", headers: {} });
  const results: Array<[string, Awaited<ReturnType<typeof load>>]> = [["bare node:http JSON handler", baseline]];
  results.push(["GET /v1/me", await load({ url: `${apiUrl}/v1/me`, method: "GET", headers: auth })]);
  results.push(["POST /v1/messages (JSON)", await load({ url: `${apiUrl}/v1/messages`, method: "POST", headers: json, body: message })]);
  results.push(["POST /v1/messages stream: first event", await load({ url: `${apiUrl}/v1/messages`, method: "POST", headers: json, body: streamBody, firstByte: true })]);

  const pad = (value: string, width: number) => value.padEnd(width);
  console.log(`${pad("target", 40)}${pad("req/s", 10)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}${pad("errors", 8)}req/s vs bare  p50 vs bare`);
  for (const [name, r] of results) {
    console.log(
      `${pad(name, 40)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50.toFixed(2), 9)}${pad(r.p99.toFixed(2), 9)}${pad(String(r.errors), 8)}${pad(`${(r.rps / baseline.rps).toFixed(3)}x`, 15)}${(r.p50 / baseline.p50).toFixed(1)}x`,
    );
  }

  for (const server of [api, bare, upstreamServer]) {
    server.closeAllConnections();
    server.close();
  }
  await queue.stop();
  await db.close();
  await stopDb();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
