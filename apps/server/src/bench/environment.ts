import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { migrateDatabase, openDatabase, startThrowawayPostgres, type Database } from "@mga/core/db";
import { createApiKey, MAX_RATE_LIMIT_PER_MINUTE, type Scope } from "@mga/core/keys";
import { createOrganization } from "@mga/core/orgs";
import { serverSecrets } from "@mga/core/secrets";
import { configureTenant } from "@mga/core/tenants";

import { LISTEN_BACKLOG } from "../http/listen-backlog";
import { benchUpstream, type UpstreamPace } from "./bench-upstream";
import { startChildServer, type ChildServer, type ChildServerOptions } from "./child-server";
import { cpuSeconds } from "./process-tree";

/**
 * What every measured run stands on: a database, one organization, the upstream stand-in, the
 * server, a bare handler and, for the bursts, a bare proxy.
 */
export interface BenchEnvironment {
  db: Database;
  organizationId: string;
  /** A key of its own with the largest rate limit, so no scenario eats another's window. */
  newKey(scopes: Scope[]): Promise<string>;
  upstreamUrl: string;
  setUpstreamPace(pace: UpstreamPace): void;
  api: ChildServer;
  bare: ChildServer;
  /** A fresh bare proxy (bare-proxy.ts) on the same upstream, a burst's reference (stopped by the caller). */
  startBareProxy(): Promise<ChildServer>;
  /** Another instance of the service on the same database and settings (stopped by the caller), e.g. with WORKERS. */
  startService(options?: Pick<ChildServerOptions, "workers">): Promise<ChildServer>;
  /** CPU seconds the embedded PostgreSQL (all its processes) has used so far; undefined for one at DATABASE_URL. */
  databaseCpuSeconds(): number | undefined;
  /** Where the database runs, for the report. */
  databaseLabel: string;
  stop(): Promise<void>;
}

export const CHAT_SCOPES: Scope[] = ["chat:read", "chat:write", "sources:read"];
/** The directory scenario's key: lists and imports of users and teams. */
export const DIRECTORY_SCOPES: Scope[] = [
  "embed:users:read",
  "embed:users:write",
  "embed:teams:read",
  "embed:teams:write",
];

/**
 * Starts it all: a throwaway embedded PostgreSQL unless DATABASE_URL is set, the service as
 * `dist/main.js` in a child process (its RSS is its own), the bare handler in another. The
 * server gets DB_POOL_MAX, NODE_OPTIONS and MALLOC_ARENA_MAX when set, to compare settings.
 */
export async function startBenchEnvironment(
  options: Pick<ChildServerOptions, "heapSnapshotDir" | "workers"> & { serverLog?: string | undefined } = {},
): Promise<BenchEnvironment> {
  const cluster = process.env.DATABASE_URL ? undefined : await startThrowawayPostgres("mga-bench-", "bench");
  const url = cluster?.url ?? (process.env.DATABASE_URL as string);
  await migrateDatabase(url);
  const secretKey = randomBytes(32).toString("base64url");
  const db = openDatabase(url, { secrets: serverSecrets(secretKey), maxConnections: 4 });
  const org = await createOrganization(db, { name: "Bench Lending" });
  await configureTenant(db, {
    organizationId: org.id,
    config: { clientName: "Bench", enabledSources: ["fha"], baseSources: ["fha"] },
  });

  const upstream = benchUpstream();
  const upstreamUrl = await listen(upstream.server);
  if (options.heapSnapshotDir) mkdirSync(options.heapSnapshotDir, { recursive: true });
  const bare = await startChildServer("bare-server", {});
  const serviceEnv = serviceEnvironment({ databaseUrl: url, secretKey, upstreamUrl });
  const api = await startChildServer("main", serviceEnv, {
    heapSnapshotDir: options.heapSnapshotDir ? path.resolve(options.heapSnapshotDir) : undefined,
    workers: options.workers,
    logFile: options.serverLog,
  });
  return {
    db,
    organizationId: org.id,
    newKey: async (scopes) =>
      (
        await createApiKey(db, {
          organizationId: org.id,
          name: "bench",
          scopes,
          rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE,
        })
      ).plaintext,
    upstreamUrl,
    setUpstreamPace: upstream.setPace,
    api,
    bare,
    startBareProxy: () => startChildServer("bare-proxy", { UPSTREAM_CHAT_URL: upstreamUrl }),
    startService: (service = {}) => startChildServer("main", serviceEnv, { workers: service.workers }),
    databaseCpuSeconds: () => (cluster ? cpuSeconds(postmasterPid(cluster.dataDir)) : undefined),
    databaseLabel: cluster ? "embedded PostgreSQL 18 on the same machine" : "PostgreSQL at DATABASE_URL",
    async stop() {
      await api.stop();
      await bare.stop();
      upstream.server.closeAllConnections();
      upstream.server.close();
      await db.close();
      await cluster?.stop();
    },
  };
}

/**
 * The server's settings a bench run takes from its own environment when set, so that one build
 * can be measured under another setting (`IDLE_MEMORY_RELEASE=trim pnpm bench`); in
 * `bench:compare`, both builds get them.
 */
const PASSED_ON = [
  "DB_POOL_MAX",
  "NODE_OPTIONS",
  "MALLOC_ARENA_MAX",
  "IDLE_MEMORY_RELEASE",
  "IDLE_MEMORY_RELEASE_ABOVE_MIB",
];
const passedOn = (names: string[]) =>
  Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));

/**
 * A measured service's settings: its database, its secret, the upstream stand-in; quiet, with
 * no admin port of its own; and those of PASSED_ON that are set.
 */
export function serviceEnvironment(input: {
  databaseUrl: string;
  secretKey: string;
  upstreamUrl: string;
}): Record<string, string> {
  return {
    DATABASE_URL: input.databaseUrl,
    SECRET_KEY: input.secretKey,
    UPSTREAM_CHAT_URL: input.upstreamUrl,
    ADMIN_API_PORT: "0",
    LOG_LEVEL: "warn",
    MGA_PRINT_BANNER: "0",
    ...passedOn(PASSED_ON),
  };
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", LISTEN_BACKLOG, resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A number the bench's scripts take from the environment (BENCH_SECONDS…), else `fallback`. */
export const knob = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

/** The postmaster's pid, the first line of its data directory's postmaster.pid (0 when not running). */
export function postmasterPid(dataDir: string): number {
  try {
    return Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return 0;
  }
}
