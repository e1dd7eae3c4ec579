import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// The native engines cannot be downloaded here, so the CLI runs its WASM schema engine
// ("js" engine) through the pg driver adapter. Migrations are applied by our own runner
// (src/db/migrate.ts); the CLI is only used for `generate` and `migrate diff`.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://localhost/unused" });
  },
});
