// Writes prisma/migrations/<timestamp>_<name>/migration.sql: the SQL that takes the schema
// as of the last migration to the current prisma/schema.prisma. The schema's state after
// the previous migrations is kept in prisma/migrations/schema.snapshot.prisma so that the
// diff runs schema-to-schema, like `prisma migrate dev` would, with no shadow database.
// Usage: pnpm --filter @mga/core migration:diff <name>
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

// The built package (run `pnpm --filter @mga/core build` first): the sources import each other
// without file extensions, which Node's own TypeScript loading does not resolve.
import { startEmbeddedPostgres } from "../dist/db/index.js";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: migration:diff <snake_case_name>");
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
const snapshot = path.join(root, "prisma", "migrations", "schema.snapshot.prisma");
const schema = path.join(root, "prisma", "schema.prisma");
// The WASM engine reaches the database through the driver adapter even for a schema-to-schema
// diff, so a throwaway embedded cluster is started for it.
const db = await startEmbeddedPostgres({
  dataDir: path.join(root, ".data", "diff"),
  database: "diff",
  persistent: false,
});
try {
  const from = existsSync(snapshot) ? ["--from-schema-datamodel", snapshot] : ["--from-empty"];
  const sql = execFileSync(
    "pnpm",
    ["exec", "prisma", "migrate", "diff", ...from, "--to-schema-datamodel", schema, "--script"],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url },
      encoding: "utf8",
    },
  );
  if (!sql.trim() || sql.includes("This is an empty migration")) {
    console.log("schema unchanged: no migration written");
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(root, "prisma", "migrations", `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "migration.sql"), sql);
    copyFileSync(schema, snapshot);
    console.log(`wrote ${path.relative(root, dir)}/migration.sql`);
  }
} finally {
  await db.stop();
}
