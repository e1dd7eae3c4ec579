import pg from "pg";

import { openDatabase, type Database, type OpenDatabaseOptions } from "../db/database";
import { ensureDatabase, quoteIdent } from "../db/embedded-postgres";
import { migrateDatabase } from "../db/migrate";
import { startThrowawayPostgres } from "../db/throwaway-postgres";
import { randomBase62 } from "../ids/new-id";
import { serverSecrets } from "../secrets/server-secrets";

/** The SECRET_KEY of every test database (tests that share a database share its secrets). */
export const TEST_SECRET_KEY = "test-secret-key-of-at-least-32-characters";
export const TEST_SECRETS = serverSecrets(TEST_SECRET_KEY);

/**
 * Tests run against a real PostgreSQL: vitest's globalSetup starts one throwaway embedded
 * cluster per test run (or uses TEST_DATABASE_URL's server), and every test file gets a
 * database of its own, migrated from the real migration files.
 */
export const TEST_ADMIN_URL_ENV = "MGA_TEST_ADMIN_URL";

export async function startTestCluster(): Promise<{ adminUrl: string; stop(): Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) return { adminUrl: process.env.TEST_DATABASE_URL, stop: async () => {} };
  const cluster = await startThrowawayPostgres("mga-test-pg-", "postgres");
  return { adminUrl: cluster.url, stop: () => cluster.stop() };
}

export interface TestDatabase {
  db: Database;
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(options: Pick<OpenDatabaseOptions, "wrapSql"> = {}): Promise<TestDatabase> {
  const adminUrl = process.env[TEST_ADMIN_URL_ENV];
  if (!adminUrl)
    throw new Error(`${TEST_ADMIN_URL_ENV} is not set: add @mga/core/testing's globalSetup to vitest.config`);
  const name = `t_${randomBase62(12).toLowerCase()}`;
  await ensureDatabase(adminUrl, name);
  const url = withDatabase(adminUrl, name);
  await migrateDatabase(url);
  const db = openDatabase(url, { secrets: TEST_SECRETS, maxConnections: 5, wrapSql: options.wrapSql });
  return {
    db,
    url,
    async drop() {
      await db.close();
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      await admin.end();
    },
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
