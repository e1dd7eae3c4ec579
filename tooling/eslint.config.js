import { baseConfig } from "@mga/eslint-config/base";
import { restrictEnvAccess } from "@mga/eslint-config/env-access";

// tooling/eslint and tooling/prettier are packages of their own and lint themselves.
export default [{ ignores: ["eslint/**", "prettier/**"] }, ...baseConfig, ...restrictEnvAccess("@mga/tooling")];
