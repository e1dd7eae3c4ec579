import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

import { openDatabase, startEmbeddedPostgres } from "@mga/core/db";
import { serverSecrets } from "@mga/core/secrets";

import { benchUpstream } from "./bench-upstream";
import { startChildServer, type ChildServer } from "./child-server";
import { CHAT_SCOPES, listen, postmasterPid } from "./environment";
import { startLoadGenerator } from "./load-process";
import { cpuSeconds } from "./process-tree";
import { median } from "./stats";

/**
 * `pnpm bench:compare <other checkout> [pairs] [burst|import|both]`: two built checkouts of the
 * service under one driver. `pnpm bench` compares a build with Node's bare servers; this
 * compares two builds, whose own benches may measure differently (an older bench sent its load
 * from a worker thread of the process that hosted the upstream stand-in). The scenarios are
 * the bench's burst (1,000 slow streams at once, after a warm-up) and its import (1,000 new
 * users, a fresh server's first, beside a directory of 100,000). Every run gets a fresh
 * database on one embedded PostgreSQL and a fresh server, started as its checkout starts it
 * and set up through its checkout's own packages/core/dist; the upstream stand-in and the load
 * generator (a process of its own) are the bench's, and the builds alternate, so that the
 * machine's drift falls on both alike.
 *
 * Example: git worktree add /tmp/old 36d2e39 && (cd /tmp/old && pnpm install && pnpm build)
 *          pnpm bench:compare /tmp/old 8 burst
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
/** This checkout: apps/server/dist/ is three folders below it. */
const THIS_CHECKOUT = path.resolve(HERE, "../../..");
const STREAMS = 1_000;
const STREAM_SECONDS = 15;
const DIRECTORY_USERS = 100_000;
const IMPORT_USERS = 1_000;
const CORE_AREAS = ["db", "secrets", "orgs", "keys", "tenants", "partners/integrations", "testing"] as const;

/**
 * What this driver calls of a checkout's core, loaded from its packages/core/dist (the other
 * build's may predate this one's types, so only these shapes are assumed).
 */
interface BuildCore {
  migrateDatabase(url: string): Promise<void>;
  openDatabase(url: string, options: { secrets: unknown; maxConnections: number }): BuildDatabase;
  serverSecrets(secretKey: string): unknown;
  createOrganization(db: BuildDatabase, input: { name: string }): Promise<{ id: string }>;
  createApiKey(
    db: BuildDatabase,
    input: { organizationId: string; name: string; scopes: string[]; rateLimitPerMinute: number },
  ): Promise<{ plaintext: string }>;
  configureTenant(db: BuildDatabase, input: { organizationId: string; config: object }): Promise<unknown>;
  createIntegration(db: BuildDatabase, input: { organizationId: string; slug: string }): Promise<{ id: string }>;
  seedDirectory(db: BuildDatabase, input: { integrationId: string; users: number; prefix: string }): Promise<unknown>;
}
interface BuildDatabase {
  sql: { query(statement: string): Promise<unknown> };
  close(): Promise<void>;
}

async function loadCore(checkout: string): Promise<BuildCore> {
  const areas = await Promise.all(
    CORE_AREAS.map((area) => import(path.join(checkout, "packages/core/dist", area, "index.js")) as Promise<object>),
  );
  return Object.assign({}, ...areas) as BuildCore;
}

type Build = "other" | "this";
interface Measured {
  [figure: string]: number | string | Record<string, number>;
}

async function main() {
  const [otherArg, pairsArg = "5", what = "both"] = process.argv.slice(2);
  const pairs = Number(pairsArg);
  if (
    !otherArg ||
    !existsSync(path.join(otherArg, "packages/core/dist/db/index.js")) ||
    !Number.isInteger(pairs) ||
    pairs < 1 ||
    !["burst", "import", "both"].includes(what)
  ) {
    console.error("usage: pnpm bench:compare <other built checkout> [pairs] [burst|import|both]");
    process.exit(2);
  }
  const checkouts: Record<Build, string> = { other: path.resolve(otherArg), this: THIS_CHECKOUT };
  const cores: Record<Build, BuildCore> = {
    other: await loadCore(checkouts.other),
    this: await loadCore(THIS_CHECKOUT),
  };

  const dir = mkdtempSync(path.join(os.tmpdir(), "mga-compare-"));
  // Run as root, the embedded PostgreSQL runs as `postgres`, who must enter the folder.
  chmodSync(dir, 0o755);
  const cluster = await startEmbeddedPostgres({
    dataDir: path.join(dir, "pg"),
    database: "compare",
    persistent: false,
  });
  const admin = openDatabase(cluster.url, {
    secrets: serverSecrets(randomBytes(32).toString("base64url")),
    maxConnections: 1,
  });
  const databaseCpu = () => cpuSeconds(postmasterPid(path.join(dir, "pg")));
  const upstream = benchUpstream();
  const upstreamUrl = await listen(upstream.server);
  const generator = startLoadGenerator();

  /** A fresh database set up by `build`'s own core, `prepare` run on it, then that build's server. */
  async function serviceOf<T>(
    build: Build,
    run: number,
    prepare: (setup: { core: BuildCore; db: BuildDatabase; organizationId: string }) => Promise<T>,
  ): Promise<{ server: ChildServer; prepared: T; key: (scopes: string[]) => Promise<string>; stop(): Promise<void> }> {
    const core = cores[build];
    const database = `compare_${build}_${run}`;
    await admin.sql.query(`CREATE DATABASE ${database}`);
    const url = cluster.url.replace(/\/compare$/, `/${database}`);
    await core.migrateDatabase(url);
    const secretKey = randomBytes(32).toString("base64url");
    const db = core.openDatabase(url, { secrets: core.serverSecrets(secretKey), maxConnections: 4 });
    const { id: organizationId } = await core.createOrganization(db, { name: "Compare Lending" });
    const key = async (scopes: string[]) =>
      (await core.createApiKey(db, { organizationId, name: "compare", scopes, rateLimitPerMinute: 100_000 })).plaintext;
    const prepared = await prepare({ core, db, organizationId });
    const env = {
      DATABASE_URL: url,
      SECRET_KEY: secretKey,
      UPSTREAM_CHAT_URL: upstreamUrl,
      ADMIN_API_PORT: "0",
      LOG_LEVEL: "warn",
      MGA_PRINT_BANNER: "0",
    };
    const server = await startChildServer("main", env, { checkout: checkouts[build] });
    return {
      server,
      prepared,
      key,
      async stop() {
        await server.stop();
        await db.close();
        await admin.sql.query(`DROP DATABASE ${database} WITH (FORCE)`);
      },
    };
  }

  /** A warm-up of instant answers, then 1,000 slow streams at once, each read to its end. */
  async function burst(build: Build, run: number): Promise<Measured> {
    const service = await serviceOf(build, run, ({ core, db, organizationId }) =>
      core.configureTenant(db, {
        organizationId,
        config: { clientName: "Compare", enabledSources: ["fha"], baseSources: ["fha"] },
      }),
    );
    try {
      const key = await service.key(CHAT_SCOPES);
      const request = {
        url: `${service.server.url}/v1/messages`,
        method: "POST" as const,
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          message: "What is the minimum down payment for an FHA loan?",
          user: { external_user_id: "bench" },
          stream: true,
        }),
      };
      await generator.run({ kind: "requests", ...request, connections: 20, seconds: 2 });
      await sleep(2_000);
      upstream.setPace({ kind: "slow", seconds: STREAM_SECONDS });
      const cpu = [service.server.cpuSeconds(), databaseCpu()] as const;
      const result = await generator.run({ kind: "burst", ...request, streams: STREAMS });
      return {
        p50: Math.round(result.p50),
        p95: Math.round(result.p95),
        p99: Math.round(result.p99),
        complete: result.complete,
        answers: result.answers,
        serverCpu: +(service.server.cpuSeconds() - cpu[0]).toFixed(2),
        databaseCpu: +(databaseCpu() - cpu[1]).toFixed(2),
      };
    } finally {
      upstream.setPace({ kind: "instant" });
      await service.stop();
    }
  }

  /** 1,000 new users into an empty integration, beside one of 100,000, on a fresh server. */
  async function importRun(build: Build, run: number): Promise<Measured> {
    const service = await serviceOf(build, run, async ({ core, db, organizationId }) => {
      const listed = await core.createIntegration(db, { organizationId, slug: "bench-list" });
      await core.createIntegration(db, { organizationId, slug: "bench-import" });
      await core.seedDirectory(db, { integrationId: listed.id, users: DIRECTORY_USERS, prefix: "user" });
      await db.sql.query("VACUUM (ANALYZE)");
    });
    try {
      const key = await service.key(["embed:users:read", "embed:users:write", "embed:teams:read", "embed:teams:write"]);
      const base = `${service.server.url}/v1/integrations/bench-import`;
      const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
      const users = Array.from({ length: IMPORT_USERS }, (_, i) => ({
        external_user_id: `imp-${i}`,
        email: `imp${i}@bench-import.bench.test`,
      }));
      const cpu = [service.server.cpuSeconds(), databaseCpu()] as const;
      const started = performance.now();
      const accepted = await fetch(`${base}/user-imports`, {
        method: "POST",
        headers: { ...headers, "Idempotency-Key": `compare-${run}` },
        body: JSON.stringify({ users }),
      });
      const jobId = ((await accepted.json()) as { import: { job_id: string } }).import.job_id;
      let status = "queued";
      while (!["completed", "failed"].includes(status) && performance.now() - started < 120_000) {
        await sleep(50);
        const polled = await fetch(`${base}/user-imports/${jobId}`, { headers });
        status = ((await polled.json()) as { import: { status: string } }).import.status;
      }
      return {
        status,
        seconds: +((performance.now() - started) / 1000).toFixed(2),
        serverCpu: +(service.server.cpuSeconds() - cpu[0]).toFixed(2),
        databaseCpu: +(databaseCpu() - cpu[1]).toFixed(2),
      };
    } finally {
      await service.stop();
    }
  }

  const scenarios = [
    { name: "burst", measure: burst, figures: ["p50", "p95", "p99", "serverCpu", "databaseCpu"] },
    { name: "import", measure: importRun, figures: ["seconds", "serverCpu", "databaseCpu"] },
  ];
  try {
    for (const { name, measure, figures } of scenarios) {
      if (what !== "both" && what !== name) continue;
      const results: Record<Build, Measured[]> = { other: [], this: [] };
      for (let run = 0; run < pairs; run += 1)
        for (const build of ["other", "this"] as const) {
          const result = await measure(build, run);
          results[build].push(result);
          console.log(name, build, JSON.stringify(result));
        }
      for (const figure of figures) {
        const [a, b] = (["other", "this"] as const).map((build) =>
          median(results[build].map((result) => Number(result[figure]))),
        ) as [number, number];
        const change = `${b >= a ? "+" : ""}${(((b - a) / a) * 100).toFixed(0)}%`;
        console.log(`${name} ${figure}, median: other ${+a.toFixed(2)}, this ${+b.toFixed(2)} (${change})`);
      }
    }
  } finally {
    await generator.stop();
    upstream.server.closeAllConnections();
    upstream.server.close();
    await admin.close();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
