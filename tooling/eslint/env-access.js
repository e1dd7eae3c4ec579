import { defineConfig } from "eslint/config";

const MESSAGE =
  "Read configuration through the package's env module (apps/server/src/env.ts, apps/admin/src/env.ts), which validates it once at start.";

/** The `no-restricted-properties` entry for process.env; a package adding entries of its own repeats it (a later setting replaces the rule's list). */
export const PROCESS_ENV_RESTRICTION = { object: "process", property: "env", message: MESSAGE };

/**
 * The files that may read process.env, per package, each with the reason. Paths are relative
 * to the package (each package lints its own directory with its own eslint.config.js).
 */
export const ENV_READERS = {
  "@mga/server": [
    { files: ["src/env.ts"], why: "the server's env module: validates the whole configuration once at start" },
    {
      files: ["src/bench/**"],
      why: "`pnpm bench` is a measuring tool, not the service: its BENCH_* knobs are not service configuration",
    },
    {
      files: ["test/**"],
      why: "tests start the built CLI and server as child processes with an edited copy of the environment",
    },
  ],
  "@mga/admin": [
    { files: ["src/env.ts"], why: "the console's env module: validates its configuration once at start" },
    {
      files: ["server.mjs"],
      why: "plain Node entry that must read PORT, HOST and TRUST_PROXY before Next (and so src/env.ts) is loaded",
    },
    { files: ["test/**"], why: "tests start the service as child processes with an edited copy of the environment" },
  ],
  "@mga/core": [
    {
      files: ["src/testing/**"],
      why: "test setup: vitest's global setup hands the test cluster's URL to the test workers through the environment",
    },
    { files: ["test/**"], why: "tests read the cluster URL that the global setup put in the environment" },
    {
      files: ["prisma.config.ts"],
      why: "config file read by the Prisma CLI, which passes DATABASE_URL in the environment",
    },
    { files: ["scripts/**"], why: "development scripts run by hand, outside the service" },
  ],
  "@mga/api": [],
  "@mga/assistant": [],
  "@mga/sdk": [],
  "@mga/tooling": [],
  "@mga/eslint-config": [],
  "@mga/prettier-config": [],
};

/**
 * Bans raw `process.env` (and `import { env } from "node:process"`) outside the files listed
 * for the package in ENV_READERS.
 */
export function restrictEnvAccess(packageName) {
  const readers = ENV_READERS[packageName];
  if (!readers)
    throw new Error(
      `@mga/eslint-config: no ENV_READERS entry for ${packageName}; add one (an empty list if nothing may read process.env)`,
    );
  return defineConfig(
    {
      name: "@mga/eslint-config/env-access",
      files: ["**/*.{js,mjs,cjs,ts,mts,cts,tsx}"],
      rules: {
        "no-restricted-properties": ["error", PROCESS_ENV_RESTRICTION],
        "no-restricted-syntax": [
          "error",
          {
            selector: "ImportDeclaration[source.value=/^(node:)?process$/] > ImportSpecifier[imported.name='env']",
            message: MESSAGE,
          },
        ],
      },
    },
    ...readers.map(({ files }, index) => ({
      name: `@mga/eslint-config/env-access/readers-${index}`,
      files,
      rules: { "no-restricted-properties": "off", "no-restricted-syntax": "off" },
    })),
  );
}
