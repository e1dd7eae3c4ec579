import path from "node:path";

import { resolveSecretKey } from "../secrets/secret-key-file";
import { serverSecrets } from "../secrets/server-secrets";
import { openDatabase, type Database, type Sql } from "./database";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-postgres";
import { migrateDatabase } from "./migrate";

export interface ConnectOptions {
  /** A PostgreSQL URL; when absent an embedded PostgreSQL is started under `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Apply pending migrations before returning (the server and CLI do; tests migrate their own). */
  migrate?: boolean;
  maxConnections?: number;
  /** SECRET_KEY; without it the embedded default generates one into `dataDir` (required with a databaseUrl). */
  secretKey?: string | undefined;
  log?: (line: string) => void;
  /** The process stops the embedded cluster itself on SIGTERM/SIGINT (see EmbeddedPostgresOptions). */
  handlesSignals?: boolean;
  /** Wraps the service's SQL (the host's query spans; openDatabase). */
  wrapSql?: ((sql: Sql) => Sql) | undefined;
}

export interface Connection {
  db: Database;
  url: string;
  embedded: EmbeddedDatabase | undefined;
  close(): Promise<void>;
}

export async function connect(options: ConnectOptions): Promise<Connection> {
  // Checked first: a missing SECRET_KEY stops the process before anything starts.
  const secrets = serverSecrets(resolveSecretKey(options));
  let embedded: EmbeddedDatabase | undefined;
  let url = options.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(options.dataDir, "postgres"),
      database: "mga",
      log: options.log,
      handlesSignals: options.handlesSignals,
    });
    url = embedded.url;
  }
  if (options.migrate !== false) await migrateDatabase(url);
  const db = openDatabase(url, { secrets, maxConnections: options.maxConnections, wrapSql: options.wrapSql });
  return {
    db,
    url,
    embedded,
    async close() {
      await db.close();
      await embedded?.stop();
    },
  };
}
