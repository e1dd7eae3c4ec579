import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

import { openDatabase, startThrowawayPostgres } from "@mga/core/db";
import { serverSecrets } from "@mga/core/secrets";
import { USAGE_FLUSH_MS } from "@mga/core/usage";

import { benchUpstream } from "./bench-upstream";
import { startChildServer, type ChildServer } from "./child-server";
import { CHAT_SCOPES, DIRECTORY_SCOPES, knob, listen, postmasterPid, serviceEnvironment } from "./environment";
import type { RequestsJob } from "./load-jobs";
import { startLoadGenerator } from "./load-process";
import { cpuSeconds } from "./process-tree";
import { median } from "./stats";
import { STREAMED_QUESTION } from "./stream-burst";
import { timeUserImport } from "./user-import";

/**
 * `pnpm bench:compare <other checkout> [pairs] [streams|directory|both]`: two built checkouts of
 * the service under one driver. `pnpm bench` compares a build with Node's bare servers; this
 * compares two builds, whose own benches may measure differently (an older bench sent its load
 * from a worker thread of the process that hosted the upstream stand-in). The scenarios are the
 * bench's:
 * - streams: after a warm-up, 1,000 slow streams at once (their first frames, the server's peak
 *   RSS, and the CPU of the streams to their ends); then the first frames of instant answers to
 *   one client and to 16;
 * - directory: an import of 1,000 new users (a fresh server's first) beside a directory of
 *   100,000, then the three lists of 100 of those.
 * Every run gets a fresh database on one embedded PostgreSQL and a fresh server, started as its
 * checkout starts it and set up through its checkout's own packages/core/dist. The upstream
 * stand-in and the load generator (a process of its own) are the bench's, and the builds
 * alternate, so that the machine's drift falls on both alike.
 *
 * Example: git worktree add /tmp/old 36d2e39 && (cd /tmp/old && pnpm install && pnpm build)
 *          pnpm bench:compare /tmp/old 8 streams
 *          COMPARE_SETTLE_MS=12500 pnpm bench:compare /tmp/old 4 streams   (bursts after a quiet spell)
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
/** This checkout: apps/server/dist/ is three folders below it. */
const THIS_CHECKOUT = path.resolve(HERE, "../../..");
const STREAMS = 1_000;
const STREAM_SECONDS = 15;
/**
 * From the warm-up to the burst. The warm-up's request log goes in a batch up to
 * USAGE_FLUSH_MS after it: by default the burst begins once that is written, as the bench's
 * rounds do, not while it is. COMPARE_SETTLE_MS above IDLE_BEFORE_RELEASE_MS (10 s) lets a
 * server that gives memory back when idle do so first.
 */
const SETTLE_MS = knob("COMPARE_SETTLE_MS", USAGE_FLUSH_MS + 500);
const DIRECTORY_USERS = 100_000;
const IMPORT_USERS = 1_000;
/** Each list's rounds (one not counted, then the timed one). */
const LIST_SECONDS = 3;
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
  seedDirectory(
    db: BuildDatabase,
    input: { integrationId: string; users: number; prefix: string },
  ): Promise<{ teamExternalIds: string[] }>;
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

/** The server's RSS before a burst and at its peak, and what it grew by per open stream, as the bench reports them. */
const peakAndPerStream = (idleBefore: number, peak: number) => ({
  idleMiB: Math.round(idleBefore / 1024 ** 2),
  peakMiB: Math.round(peak / 1024 ** 2),
  kibPerStream: +((peak - idleBefore) / 1024 / STREAMS).toFixed(1),
});

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
    !["streams", "directory", "both"].includes(what)
  ) {
    console.error("usage: pnpm bench:compare <other built checkout> [pairs] [streams|directory|both]");
    process.exit(2);
  }
  const checkouts: Record<Build, string> = { other: path.resolve(otherArg), this: THIS_CHECKOUT };
  const cores: Record<Build, BuildCore> = {
    other: await loadCore(checkouts.other),
    this: await loadCore(THIS_CHECKOUT),
  };

  const cluster = await startThrowawayPostgres("mga-compare-", "compare");
  const admin = openDatabase(cluster.url, {
    secrets: serverSecrets(randomBytes(32).toString("base64url")),
    maxConnections: 1,
  });
  const databaseCpu = () => cpuSeconds(postmasterPid(cluster.dataDir));
  /** CPU seconds the server and the database spend from now until the returned function is called. */
  const meter = (server: ChildServer) => {
    const [serverFrom, databaseFrom] = [server.cpuSeconds(), databaseCpu()];
    return () => ({
      serverCpu: +(server.cpuSeconds() - serverFrom).toFixed(2),
      databaseCpu: +(databaseCpu() - databaseFrom).toFixed(2),
    });
  };
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
    const env = serviceEnvironment({ databaseUrl: url, secretKey, upstreamUrl });
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

  /** A warm-up of instant answers, 1,000 slow streams at once (each read to its end), then first frames of instant answers. */
  async function streams(build: Build, run: number): Promise<Measured> {
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
        body: JSON.stringify(STREAMED_QUESTION),
      };
      await generator.run({ kind: "requests", ...request, connections: 20, seconds: 2 });
      await sleep(SETTLE_MS);
      upstream.setPace({ kind: "slow", seconds: STREAM_SECONDS });
      const spent = meter(service.server);
      const idleBefore = service.server.rss();
      const peakOf = service.server.samplePeak();
      const result = await generator.run({ kind: "burst", ...request, streams: STREAMS });
      const burst = {
        p50: Math.round(result.p50),
        p95: Math.round(result.p95),
        p99: Math.round(result.p99),
        complete: result.complete,
        answers: result.answers,
        ...peakAndPerStream(idleBefore, peakOf()),
        ...spent(),
      };
      // After the burst, not before: thousands of instant answers leave writes (their frames, the
      // request log) that would fall into the burst's CPU and first frames.
      upstream.setPace({ kind: "instant" });
      await sleep(3_000);
      // The bench's first-frame rows: one client (the service's overhead), then 16 (plus queueing).
      const firstFrame = async (connections: number) =>
        (await generator.run({ kind: "requests", ...request, connections, seconds: 3, until: "first-content" })).p50;
      return {
        ...burst,
        oneClientP50: +(await firstFrame(1)).toFixed(2),
        sixteenClientsP50: +(await firstFrame(16)).toFixed(2),
      };
    } finally {
      upstream.setPace({ kind: "instant" });
      await service.stop();
    }
  }

  /**
   * 1,000 new users into an empty integration, beside one of 100,000, on a fresh server; then
   * the bench's three lists of 100 of those 100,000 (one connection, each after a round of its
   * own that is not counted, as the bench times them).
   */
  async function directory(build: Build, run: number): Promise<Measured> {
    const service = await serviceOf(build, run, async ({ core, db, organizationId }) => {
      const listed = await core.createIntegration(db, { organizationId, slug: "bench-list" });
      await core.createIntegration(db, { organizationId, slug: "bench-import" });
      const seeded = await core.seedDirectory(db, { integrationId: listed.id, users: DIRECTORY_USERS, prefix: "user" });
      await db.sql.query("VACUUM (ANALYZE)");
      return seeded.teamExternalIds[0] ?? "";
    });
    try {
      const key = await service.key(DIRECTORY_SCOPES);
      const headers = { Authorization: `Bearer ${key}` };
      const spent = meter(service.server);
      const { status, seconds } = await timeUserImport(service.server.url, key, {
        slug: "bench-import",
        users: IMPORT_USERS,
        timeoutMs: 120_000,
      });
      const imported = { status, seconds: +seconds.toFixed(2), ...spent() };
      const list = async (query: string) => {
        const job: RequestsJob = {
          kind: "requests",
          url: `${service.server.url}/v1/integrations/bench-list/users?limit=100${query}`,
          method: "GET",
          headers,
          connections: 1,
          seconds: LIST_SECONDS,
        };
        await generator.run(job);
        const stats = await generator.run(job);
        return stats.errors === 0 ? +stats.p95.toFixed(2) : `${stats.errors} errors`;
      };
      return {
        ...imported,
        listP95: await list(""),
        teamListP95: await list(`&team_external_id=${service.prepared}`),
        partialIdListP95: await list("&q=user-01"),
      };
    } finally {
      await service.stop();
    }
  }

  const scenarios = [
    {
      name: "streams",
      measure: streams,
      figures: [
        "oneClientP50",
        "sixteenClientsP50",
        "p50",
        "p95",
        "p99",
        "idleMiB",
        "peakMiB",
        "kibPerStream",
        "serverCpu",
        "databaseCpu",
      ],
    },
    {
      name: "directory",
      measure: directory,
      figures: ["seconds", "serverCpu", "databaseCpu", "listP95", "teamListP95", "partialIdListP95"],
    },
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
        const [other, mine] = (["other", "this"] as const).map((build) => {
          const values = results[build].map((result) => Number(result[figure]));
          return { median: median(values), range: `${Math.min(...values)}-${Math.max(...values)}` };
        }) as [{ median: number; range: string }, { median: number; range: string }];
        const change = ((mine.median - other.median) / other.median) * 100;
        console.log(
          `${name} ${figure}, median (range): other ${+other.median.toFixed(2)} (${other.range}), ` +
            `this ${+mine.median.toFixed(2)} (${mine.range}), ${change >= 0 ? "+" : ""}${change.toFixed(0)}%`,
        );
      }
    }
  } finally {
    await generator.stop();
    upstream.server.closeAllConnections();
    upstream.server.close();
    await admin.close();
    await cluster.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
