import { setTimeout as sleep } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import type { Database } from "@mga/core/db";
import { createIntegration } from "@mga/core/partners/integrations";
import { seedDirectory } from "@mga/core/testing";
import { CHAT_SCOPES, startBenchEnvironment } from "./environment";
import type { BurstJob, BurstResult, RequestsJob } from "./load-worker";
import { difference, latency, machine, markdown, mib, type Row, throughput } from "./report";
import type { Stats } from "./stats";

/**
 * `pnpm bench`: every figure of issue 14 in one run, each beside a bare node:http handler
 * measured in the same run (ratios decide, not absolute numbers). The service runs as
 * `dist/main.js` in a child process (its RSS is its own), the bare handler in another, the
 * load generator in worker threads, the upstream stand-in here. Prints a Markdown table.
 * Knobs (CI runs small values, see .ci/run):
 *   BENCH_SECONDS (5)          per throughput/latency round
 *   BENCH_CONNECTIONS (16)     concurrent keep-alive clients in those rounds
 *   BENCH_STREAMS (1000)       streams opened at once against the slow upstream
 *   BENCH_STREAM_SECONDS (15)  the slow upstream's answer length, one frame a second
 *   BENCH_USERS (100000)       users in the integration whose list is read
 *   BENCH_IMPORT_USERS (1000)  users in the timed import
 *   BENCH_HEAP_SNAPSHOTS       a directory: the server writes heap snapshots there at start,
 *                              after the load rounds and after the burst
 *   DATABASE_URL               an existing PostgreSQL instead of a throwaway embedded one
 *   DB_POOL_MAX, NODE_OPTIONS, MALLOC_ARENA_MAX  passed to the server when set (environment.ts)
 */
const knob = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = knob("BENCH_SECONDS", 5);
const CONNECTIONS = knob("BENCH_CONNECTIONS", 16);
const STREAMS = knob("BENCH_STREAMS", 1000);
const STREAM_SECONDS = knob("BENCH_STREAM_SECONDS", 15);
const USERS = knob("BENCH_USERS", 100_000);
const IMPORT_USERS = knob("BENCH_IMPORT_USERS", 1000);
const SNAPSHOTS = process.env.BENCH_HEAP_SNAPSHOTS;
/** Time given to a process to settle (timers, GC) before its idle RSS is read. */
const SETTLE_MS = 3000;

function inWorker<T>(job: RequestsJob | BurstJob): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./load-worker.js", import.meta.url), { workerData: job });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}
const load = (job: Omit<RequestsJob, "kind" | "seconds" | "connections"> & { connections?: number }) => inWorker<Stats>({ kind: "requests", seconds: SECONDS, connections: CONNECTIONS, ...job });

async function main() {
  const env = await startBenchEnvironment({ heapSnapshotDir: SNAPSHOTS });
  const { db, api, bare, upstreamUrl } = env;
  // One key per scenario, so no round eats another's rate-limit window.
  const [meKey, messageKey, streamKey, burstKey] = await Promise.all([env.newKey(CHAT_SCOPES), env.newKey(CHAT_SCOPES), env.newKey(CHAT_SCOPES), env.newKey(CHAT_SCOPES)]);
  const directoryKey = await env.newKey(["embed:users:read", "embed:users:write", "embed:teams:read", "embed:teams:write"]);
  const listed = await createIntegration(db, { organizationId: env.organizationId, slug: "bench-list" });
  await createIntegration(db, { organizationId: env.organizationId, slug: "bench-import" });
  const snapshot = async (label: string) => SNAPSHOTS && console.error(`heap snapshot ${label}: ${await api.heapSnapshot()}`);

  const rows: Row[] = [];
  const startedAt = new Date();
  console.error(`benchmark: ${SECONDS}s rounds, ${CONNECTIONS} connections, ${STREAMS} streams of ${STREAM_SECONDS}s, ${USERS} users, import of ${IMPORT_USERS}`);

  await sleep(SETTLE_MS);
  const idleAtStart = api.rss();
  const bareIdle = bare.rss();
  await snapshot("at start");

  // Throughput: the hot paths with an instant upstream.
  const me = { Authorization: `Bearer ${meKey}` };
  const json = (key: string) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });
  const question = { message: "What is the minimum down payment for an FHA loan?", user: { external_user_id: "bench" } };
  const baseline = await load({ url: `${bare.url}/`, method: "GET", headers: {} });
  rows.push({ measure: `bare node:http JSON handler (${CONNECTIONS} connections)`, value: throughput(baseline), bare: "", comparison: "1.000×", target: "" });
  const meStats = await load({ url: `${api.url}/v1/me`, method: "GET", headers: me });
  rows.push(versusBare("GET /v1/me", meStats, baseline, 0.25));
  const messages = await load({ url: `${api.url}/v1/messages`, method: "POST", headers: json(messageKey), body: JSON.stringify(question) });
  rows.push(versusBare("POST /v1/messages (JSON, instant upstream)", messages, baseline, 0.1));

  // Time to the first `content` frame, through the API and straight from the upstream: with one
  // client (the overhead itself, what the target is about), then with CONNECTIONS (plus queueing).
  const firstContent = (connections: number) => ({
    direct: () =>
      load({
        url: `${upstreamUrl}/v1/chat/stream`,
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ conversation_id: "conv_bench", message: question.message, history: [], sources: { agency_source_types: ["fha"] } }),
        until: "first-content",
        connections,
      }),
    api: () => load({ url: `${api.url}/v1/messages`, method: "POST", headers: json(streamKey), body: JSON.stringify({ ...question, stream: true }), until: "first-content", connections }),
  });
  for (const connections of [1, CONNECTIONS]) {
    const direct = await firstContent(connections).direct();
    const streamed = await firstContent(connections).api();
    rows.push({
      measure: `first SSE \`content\` frame, POST /v1/messages stream (${connections === 1 ? "1 connection: the overhead" : `${connections} connections: overhead plus queueing`})`,
      value: latency(streamed),
      bare: `upstream alone: ${latency(direct)}`,
      comparison: `p50 ${difference(streamed.p50, direct.p50)}, p99 ${difference(streamed.p99, direct.p99)}`,
      target: connections === 1 ? "≤ +1 ms p50" : "",
      ...(connections === 1 ? { met: streamed.p50 - direct.p50 <= 1 } : {}),
    });
  }

  // The directory at scale: one client, so the figures are latencies, not queueing.
  const listing = await directoryRows(db, api.url, directoryKey, listed.id, bare.url);
  rows.push(...listing);
  rows.push(await importRow(api.url, directoryKey));

  // The burst of long streams against the slow upstream, and the memory around it.
  await sleep(SETTLE_MS);
  const idleBeforeBurst = api.rss();
  await snapshot("after the load rounds");
  env.setUpstreamPace({ kind: "slow", seconds: STREAM_SECONDS });
  const peakOf = api.samplePeak();
  const burst = await inWorker<BurstResult>({
    kind: "burst",
    url: `${api.url}/v1/messages`,
    method: "POST",
    headers: json(burstKey),
    body: JSON.stringify({ ...question, stream: true }),
    streams: STREAMS,
  });
  const peak = peakOf();
  env.setUpstreamPace({ kind: "instant" });
  await sleep(SETTLE_MS);
  const idleAfterBurst = api.rss();
  await snapshot("after the burst");
  const perStream = (peak - idleBeforeBurst) / STREAMS / 1024;
  rows.push({
    measure: `${STREAMS} concurrent streams, slow upstream (a frame a second for ${STREAM_SECONDS} s)`,
    value: `${burst.complete} of ${STREAMS} complete with one terminal frame (terminal frames per stream: ${JSON.stringify(burst.terminalFrames)}), all done in ${(burst.durationMs / 1000).toFixed(1)} s`,
    bare: "",
    comparison: "",
    target: "all complete",
    met: burst.complete === STREAMS,
  });
  rows.push({ measure: "first `content` frame of the burst", value: latency(burst), bare: "", comparison: "", target: "≤ 500 ms p50", met: burst.p50 <= 500 });
  rows.push({
    measure: "server RSS idle, at start",
    value: mib(idleAtStart),
    bare: mib(bareIdle),
    comparison: `+${mib(idleAtStart - bareIdle)}`,
    target: "≤ 150 MiB",
    met: idleAtStart <= 150 * 1024 ** 2,
  });
  rows.push({
    measure: "server RSS idle, after the load rounds",
    value: mib(idleBeforeBurst),
    bare: mib(bare.rss()),
    comparison: `+${mib(idleBeforeBurst - idleAtStart)} since start`,
    target: "≤ 150 MiB",
    met: idleBeforeBurst <= 150 * 1024 ** 2,
  });
  rows.push({
    measure: `server RSS peak during the ${STREAMS} streams`,
    value: mib(peak),
    bare: "",
    comparison: `${perStream.toFixed(1)} KiB per open stream`,
    target: "≤ 50 KiB per stream",
    met: perStream <= 50,
  });
  rows.push({
    measure: "server RSS idle, after the burst",
    value: mib(idleAfterBurst),
    bare: "",
    comparison: `+${mib(idleAfterBurst - idleAtStart)} since start`,
    target: "≤ 150 MiB",
    met: idleAfterBurst <= 150 * 1024 ** 2,
  });

  console.log(`\nBenchmark of ${startedAt.toISOString().slice(0, 10)} on ${machine(env.databaseLabel)}`);
  console.log(`(${SECONDS} s rounds, ${CONNECTIONS} connections, load generator in worker threads; the server and the bare handler each in a process of its own)\n`);
  console.log(markdown(rows));
  await env.stop();
}

function versusBare(measure: string, stats: Stats, baseline: Stats, target: number): Row {
  const ratio = stats.rps / baseline.rps;
  return { measure, value: throughput(stats), bare: throughput(baseline), comparison: `${ratio.toFixed(3)}×`, target: `≥ ${target.toFixed(2)}×`, met: ratio >= target };
}

/** GET …/users?limit=100 over USERS users, unfiltered and filtered, beside the bare handler at one connection. */
async function directoryRows(db: Database, apiUrl: string, key: string, integrationId: string, bareUrl: string): Promise<Row[]> {
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const base = `${apiUrl}/v1/integrations/bench-list`;
  const seeded = performance.now();
  // The rows provisioning writes (site account, chat identity, teams), in a few statements.
  const { teamExternalIds } = await seedDirectory(db, { integrationId, users: USERS, prefix: "user" });
  console.error(`seeded ${USERS} users in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  const one = { connections: 1, method: "GET" as const, headers };
  const bare = await load({ ...one, url: `${bareUrl}/`, headers: {} });
  const rowOf = (measure: string, stats: Stats): Row => ({
    measure,
    value: latency(stats, "p95"),
    bare: latency(bare, "p95"),
    comparison: `p95 ${difference(stats.p95, bare.p95)}`,
    target: "≤ 20 ms p95",
    met: stats.p95 <= 20 && stats.errors === 0,
  });
  const label = `${USERS.toLocaleString("en-US")} users, 1 connection`;
  return [
    rowOf(`list 100 users (${label})`, await load({ ...one, url: `${base}/users?limit=100` })),
    rowOf(`list 100 users, team filter (${label})`, await load({ ...one, url: `${base}/users?limit=100&team_external_id=${teamExternalIds[0]}` })),
    rowOf(`list 100 users, partial id filter (${label})`, await load({ ...one, url: `${base}/users?limit=100&q=user-01` })),
  ];
}

/** POST …/user-imports of IMPORT_USERS users, timed from the request until the job reads `completed`. */
async function importRow(apiUrl: string, key: string): Promise<Row> {
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `bench-${Date.now()}` };
  const base = `${apiUrl}/v1/integrations/bench-import`;
  const users = Array.from({ length: IMPORT_USERS }, (_, i) => ({ external_user_id: `imp-${i}`, email: `imp${i}@bench.test` }));
  const started = performance.now();
  const accepted = await fetch(`${base}/user-imports`, { method: "POST", headers, body: JSON.stringify({ users }) });
  const body = (await accepted.json()) as { import?: { job_id: string } };
  if (accepted.status !== 202 || !body.import) throw new Error(`the import answered ${accepted.status}`);
  let status = "queued";
  while (!["completed", "failed"].includes(status) && performance.now() - started < 300_000) {
    await sleep(50);
    const polled = (await (await fetch(`${base}/user-imports/${body.import.job_id}`, { headers })).json()) as { import: { status: string } };
    status = polled.import.status;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    measure: `import of ${IMPORT_USERS.toLocaleString("en-US")} users, request to \`completed\``,
    value: `${seconds.toFixed(2)} s (${status})`,
    bare: "",
    comparison: "",
    target: "≤ 5 s",
    met: status === "completed" && seconds <= 5,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
