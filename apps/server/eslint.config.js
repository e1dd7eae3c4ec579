import { baseConfig } from "@mga/eslint-config/base";
import { browserScripts } from "@mga/eslint-config/browser";
import { importBoundaries } from "@mga/eslint-config/boundaries";
import { restrictEnvAccess } from "@mga/eslint-config/env-access";

export default [...baseConfig, ...importBoundaries.server, ...restrictEnvAccess("@mga/server"), ...browserScripts(["src/http/**/static/**/*.js"])];
