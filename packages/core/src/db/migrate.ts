import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

import type { Database } from "./database";

/**
 * Applies the SQL migrations in packages/core/prisma/migrations, in name order, each in its
 * own transaction. Prisma's own `migrate deploy` cannot run here (see the toolchain notes),
 * so this runner keeps Prisma's `_prisma_migrations` table format: where the native engine
 * exists, `prisma migrate status` still reads the history.
 *
 * Safe when several instances start at once: a session advisory lock serialises them, and
 * each one re-reads the applied list after taking the lock.
 */
const LOCK_KEY = 72_707_369; // arbitrary, fixed: "migrations" for this service

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrateDatabase(
  databaseUrl: string,
  migrationsDir = findMigrationsDir(),
): Promise<MigrationResult> {
  const migrations = readMigrations(migrationsDir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const recorded = done.get(migration.name);
      if (recorded !== undefined) {
        if (recorded !== migration.checksum) {
          throw new Error(`migration ${migration.name} was changed after it was applied (checksum mismatch)`);
        }
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(migration.name);
    }
    return { applied, alreadyApplied: migrations.length - applied.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

function readMigrations(dir: string): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Works from src/ (tests) and from dist/ (the built package). */
export function findMigrationsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = path.join(dir, "prisma", "migrations");
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error("prisma/migrations not found next to @mga/core");
}

/**
 * The migrations this build ships that the database has not applied (the readiness check): an
 * instance whose schema is behind its code must not take traffic. A database without the
 * migrations table has applied none.
 */
export async function pendingMigrations(db: Database, migrationsDir = findMigrationsDir()): Promise<string[]> {
  const names = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(migrationsDir, entry.name, "migration.sql")))
    .map((entry) => entry.name);
  const table = await db.sql.query<{ found: string | null }>(
    `SELECT to_regclass('"_prisma_migrations"')::text AS found`,
  );
  if (!table.rows[0]?.found) return names.sort();
  const { rows } = await db.sql.query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(rows.map((row) => row.migration_name));
  return names.filter((name) => !applied.has(name)).sort();
}
