import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

import { ensureDatabase, quoteIdent } from "../../src/db/embedded-postgres";
import { findMigrationsDir, migrateDatabase } from "../../src/db/migrate";
import { TEST_ADMIN_URL_ENV } from "../../src/testing/index";

const adminUrl = () => process.env[TEST_ADMIN_URL_ENV] as string;
const urlOf = (name: string) => Object.assign(new URL(adminUrl()), { pathname: `/${name}` }).toString();
const created: string[] = [];

afterAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  await admin.end();
});

describe("migrations", () => {
  it("apply once when several instances start at the same time", async () => {
    const name = `migrate_race_${process.pid}`;
    created.push(name);
    await ensureDatabase(adminUrl(), name);
    const results = await Promise.all([1, 2, 3, 4].map(() => migrateDatabase(urlOf(name))));
    const appliedBy = results.filter((result) => result.applied.length > 0);
    expect(appliedBy).toHaveLength(1);
    const client = new pg.Client({ connectionString: urlOf(name) });
    await client.connect();
    const { rows } = await client.query(
      `SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY 1`,
    );
    await client.end();
    expect(rows.length).toBe(appliedBy[0]?.applied.length);
    expect(rows.every((row) => row.n === 1)).toBe(true);
  });

  it("refuse a migration edited after it was applied", async () => {
    const name = `migrate_edit_${process.pid}`;
    created.push(name);
    await ensureDatabase(adminUrl(), name);
    await migrateDatabase(urlOf(name));
    const client = new pg.Client({ connectionString: urlOf(name) });
    await client.connect();
    await client.query(`UPDATE "_prisma_migrations" SET checksum = 'tampered'`);
    await client.end();
    await expect(migrateDatabase(urlOf(name), findMigrationsDir())).rejects.toThrow(/checksum mismatch/);
  });
});
