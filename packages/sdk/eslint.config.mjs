import { baseConfig } from "@mga/eslint-config/base";
import { importBoundaries } from "@mga/eslint-config/boundaries";
import { restrictEnvAccess } from "@mga/eslint-config/env-access";

export default [
  ...baseConfig,
  ...importBoundaries.sdk,
  ...restrictEnvAccess("@mga/sdk"),
  {
    // The type generator builds the document from @mga/api at development time; it is not shipped.
    name: "@mga/sdk/scripts",
    files: ["scripts/**"],
    rules: { "@typescript-eslint/no-restricted-imports": "off" },
  },
];
