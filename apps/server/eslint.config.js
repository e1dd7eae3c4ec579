import { baseConfig } from "@mga/eslint-config/base";
import { importBoundaries } from "@mga/eslint-config/boundaries";
import { browserScripts } from "@mga/eslint-config/browser";
import { restrictEnvAccess } from "@mga/eslint-config/env-access";

export default [
  ...baseConfig,
  ...importBoundaries.server,
  ...restrictEnvAccess("@mga/server"),
  ...browserScripts(["src/http/**/static/**/*.js"]),
];
