import { baseConfig } from "@mga/eslint-config/base";
import { restrictEnvAccess } from "@mga/eslint-config/env-access";

export default [...baseConfig, ...restrictEnvAccess("@mga/prettier-config")];
