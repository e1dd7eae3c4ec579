import { baseConfig } from "@mga/eslint-config/base";
import { importBoundaries } from "@mga/eslint-config/boundaries";
import { PROCESS_ENV_RESTRICTION, restrictEnvAccess } from "@mga/eslint-config/env-access";

export default [
  ...baseConfig,
  ...importBoundaries.api,
  ...restrictEnvAccess("@mga/api"),
  {
    // api calls core's domain functions and never runs SQL itself (docs/architecture.md).
    name: "@mga/api/no-sql",
    files: ["**/*.{js,mjs,ts}"],
    rules: {
      "no-restricted-properties": [
        "error",
        PROCESS_ENV_RESTRICTION,
        {
          property: "sql",
          message: "api never runs SQL: call (or add) a core domain function that takes the Database.",
        },
      ],
    },
  },
];
