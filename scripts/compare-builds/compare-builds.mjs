// Two builds of the service under one driver: the burst of `pnpm bench` (first frames of 1,000
// slow streams) and its import (1,000 users, a fresh server's first, into an integration beside
// a directory of 100,000), each build in turn on a fresh database and a fresh server, the same
// load client, upstream stand-in and PostgreSQL for both. `pnpm bench` compares a build with
// Node's bare servers; this compares two builds, whose own benches may measure differently (an
// older bench ran its load client in a worker thread of the process that hosts the upstream).
// Each build is set up through its own packages/core/dist, so both checkouts must be built.
//
// Usage: scripts/node24 scripts/compare-builds/compare-builds.mjs <other checkout> [pairs] [burst|import|both]
// Example: git worktree add /tmp/old 36d2e39 && (cd /tmp/old && pnpm install && pnpm turbo run build)
//          scripts/node24 scripts/compare-builds/compare-builds.mjs /tmp/old 8
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

const HERE = path.resolve(import.meta.dirname, "../..");
const [other, pairs = "5", what = "both"] = process.argv.slice(2);
if (!other || !existsSync(path.join(other, "packages/core/dist/db/index.js"))) {
  console.error("usage: compare-builds.mjs <other built checkout> [pairs] [burst|import|both]");
  process.exit(2);
}
const BUILDS = { other: path.resolve(other), this: HERE };
const STREAMS = 1_000;
const DIRECTORY_USERS = 100_000;
const IMPORT_USERS = 1_000;

const {
  freePort,
  openDatabase: openOwn,
  startEmbeddedPostgres,
} = await import(path.join(HERE, "packages/core/dist/db/index.js"));
const { serverSecrets } = await import(path.join(HERE, "packages/core/dist/secrets/index.js"));
/** Runs `statement` on the cluster's own database (creates and drops the runs' databases). */
async function clusterSql(statement) {
  const secrets = serverSecrets(randomBytes(32).toString("base64url"));
  const handle = openOwn(cluster.url, { secrets, maxConnections: 1 });
  try {
    await handle.sql.query(statement);
  } finally {
    await handle.close();
  }
}
const pgDir = mkdtempSync(path.join(tmpdir(), "mga-compare-"));
// Run as root, the embedded PostgreSQL runs as `postgres`, who must enter the folder (as in the bench).
chmodSync(pgDir, 0o755);
const cluster = await startEmbeddedPostgres({
  dataDir: path.join(pgDir, "pg"),
  database: "compare",
  persistent: false,
});
const postmaster = Number(readFileSync(path.join(pgDir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);

/** The bench's upstream stand-in (apps/server/src/bench/bench-upstream.ts): at once, or a frame a second for 15 s. */
let slow = false;
const frame = (event) => `data: ${JSON.stringify(event)}\n\n`;
const ENDING =
  frame({ type: "content_postprocessed", content: "FHA requires 3.5 percent down.", citations: [], sources: [] }) +
  frame({ type: "complete", metadata: { tokens_used: 12 } });
const upstream = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    if (!slow) return res.end(frame({ type: "content", content: "FHA requires 3.5 percent down." }) + ENDING);
    let sent = 0;
    let timer;
    const next = () => {
      if (res.destroyed) return;
      res.write(frame({ type: "content", content: `Part ${(sent += 1)}. ` }));
      timer = sent < 15 ? setTimeout(next, 1_000) : void res.end(ENDING);
    };
    timer = setTimeout(next, 0);
    res.on("close", () => clearTimeout(timer));
  });
});
upstream.listen(0, "127.0.0.1", 4_096);
await new Promise((resolve) => upstream.once("listening", resolve));

/** CPU seconds of a process and its descendants, as apps/server/src/bench/process-tree.ts reads them. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const own = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean);
    return own + children.reduce((sum, child) => sum + cpuSeconds(Number(child)), 0);
  } catch {
    return 0;
  }
}

/** A fresh database set up by `build`'s own core, and its server started as that build starts it. */
async function serviceOf(build, run, setUp) {
  const root = BUILDS[build];
  const core = (area) => import(path.join(root, "packages/core/dist", area, "index.js"));
  const { migrateDatabase, openDatabase } = await core("db");
  const database = `compare_${build}_${run}`;
  await clusterSql(`CREATE DATABASE ${database}`);
  const url = cluster.url.replace(/\/compare$/, `/${database}`);
  await migrateDatabase(url);
  const secretKey = randomBytes(32).toString("base64url");
  const db = openDatabase(url, { secrets: (await core("secrets")).serverSecrets(secretKey), maxConnections: 4 });
  const { id: organizationId } = await (await core("orgs")).createOrganization(db, { name: "Compare Lending" });
  const key = async (scopes) =>
    (
      await (
        await core("keys")
      ).createApiKey(db, { organizationId, name: "compare", scopes, rateLimitPerMinute: 100_000 })
    ).plaintext;
  const extra = await setUp({ db, core, organizationId, key });
  const port = await freePort();
  const env = {
    NODE_ENV: "production",
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: url,
    SECRET_KEY: secretKey,
    UPSTREAM_CHAT_URL: `http://127.0.0.1:${upstream.address().port}`,
    ADMIN_API_PORT: "0",
    LOG_LEVEL: "warn",
    MGA_PRINT_BANNER: "0",
    PORT: String(port),
    HOST: "127.0.0.1",
  };
  // A build that predates apps/server/run-server.sh starts as its bench started it: its flags, then dist/main.js.
  const runScript = path.join(root, "apps/server/run-server.sh");
  const [command, args] = existsSync(runScript)
    ? [runScript, []]
    : [
        process.execPath,
        [
          ...JSON.parse(readFileSync(path.join(root, "apps/server/node-flags.json"), "utf8")).flags,
          path.join(root, "apps/server/dist/main.js"),
        ],
      ];
  const server = spawn(command, args, { env, stdio: ["ignore", "ignore", "inherit"] });
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    // Any answer at all: the server listens.
    const up = await fetch(`${base}/v1/me`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (tries > 300 || server.exitCode !== null) throw new Error(`the ${build} build's server did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    pid: server.pid,
    ...extra,
    async stop() {
      server.kill("SIGKILL");
      await new Promise((resolve) => server.once("exit", resolve));
      await db.close();
      await clusterSql(`DROP DATABASE ${database} WITH (FORCE)`);
    },
  };
}

const CHAT = ["chat:read", "chat:write", "sources:read"];

/** One burst: a warm-up of 200 instant answers, then 1,000 slow streams from the burst client. */
async function burst(build, run) {
  const service = await serviceOf(build, run, async ({ db, core, organizationId, key }) => {
    await (
      await core("tenants")
    ).configureTenant(db, {
      organizationId,
      config: { clientName: "Compare", enabledSources: ["fha"], baseSources: ["fha"] },
    });
    return { key: await key(CHAT) };
  });
  try {
    const ask = () =>
      fetch(`${service.base}/v1/messages`, {
        method: "POST",
        headers: { Authorization: `Bearer ${service.key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ message: "q", user: { external_user_id: "bench" }, stream: true }),
      }).then((r) => r.text());
    for (let round = 0; round < 10; round += 1) await Promise.all(Array.from({ length: 20 }, ask));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    slow = true;
    const cpu = [cpuSeconds(service.pid), cpuSeconds(postmaster)];
    const client = spawn(
      process.execPath,
      [path.join(import.meta.dirname, "burst-client.mjs"), `${service.base}/v1/messages`, service.key, String(STREAMS)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    client.stdout.on("data", (chunk) => (out += chunk));
    await new Promise((resolve) => client.once("exit", resolve));
    const result = JSON.parse(out);
    result.serverCpu = +(cpuSeconds(service.pid) - cpu[0]).toFixed(2);
    result.databaseCpu = +(cpuSeconds(postmaster) - cpu[1]).toFixed(2);
    return result;
  } finally {
    slow = false;
    await service.stop();
  }
}

/** One import of 1,000 new users into an empty integration, beside one of 100,000, on a fresh server. */
async function importRun(build, run) {
  const service = await serviceOf(build, run, async ({ db, core, organizationId, key }) => {
    const { createIntegration } = await core("partners/integrations");
    const listed = await createIntegration(db, { organizationId, slug: "bench-list" });
    await createIntegration(db, { organizationId, slug: "bench-import" });
    await (
      await core("testing")
    ).seedDirectory(db, { integrationId: listed.id, users: DIRECTORY_USERS, prefix: "user" });
    await db.sql.query("VACUUM (ANALYZE)");
    return { key: await key(["embed:users:read", "embed:users:write", "embed:teams:read", "embed:teams:write"]) };
  });
  try {
    const base = `${service.base}/v1/integrations/bench-import`;
    const headers = { Authorization: `Bearer ${service.key}`, "Content-Type": "application/json" };
    const users = Array.from({ length: IMPORT_USERS }, (_, i) => ({
      external_user_id: `imp-${i}`,
      email: `imp${i}@bench-import.bench.test`,
    }));
    const cpu = [cpuSeconds(service.pid), cpuSeconds(postmaster)];
    const started = performance.now();
    const accepted = await fetch(`${base}/user-imports`, {
      method: "POST",
      headers: { ...headers, "Idempotency-Key": `compare-${run}` },
      body: JSON.stringify({ users }),
    });
    const jobId = (await accepted.json()).import.job_id;
    let status = "queued";
    while (!["completed", "failed"].includes(status) && performance.now() - started < 120_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await (await fetch(`${base}/user-imports/${jobId}`, { headers })).json()).import.status;
    }
    return {
      status,
      seconds: +((performance.now() - started) / 1000).toFixed(2),
      serverCpu: +(cpuSeconds(service.pid) - cpu[0]).toFixed(2),
      databaseCpu: +(cpuSeconds(postmaster) - cpu[1]).toFixed(2),
    };
  } finally {
    await service.stop();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

try {
  for (const [scenario, measure, figures] of [
    ["burst", burst, ["p50", "p90", "p99", "serverCpu", "databaseCpu"]],
    ["import", importRun, ["seconds", "serverCpu", "databaseCpu"]],
  ]) {
    if (what !== "both" && what !== scenario) continue;
    const results = { other: [], this: [] };
    // Alternated, so that the machine's drift falls on both builds alike.
    for (let run = 0; run < Number(pairs); run += 1)
      for (const build of ["other", "this"]) {
        const result = await measure(build, run);
        results[build].push(result);
        console.log(scenario, build, JSON.stringify(result));
      }
    for (const figure of figures) {
      const [a, b] = [median(results.other.map((r) => r[figure])), median(results.this.map((r) => r[figure]))];
      const change = `${b >= a ? "+" : ""}${(((b - a) / a) * 100).toFixed(0)}%`;
      console.log(`${scenario} ${figure}, median: other ${+a.toFixed(2)}, this ${+b.toFixed(2)} (${change})`);
    }
  }
} finally {
  upstream.close();
  await cluster.stop();
  rmSync(pgDir, { recursive: true, force: true });
}
process.exit(0);
