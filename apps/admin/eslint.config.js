import { baseConfig } from "@mga/eslint-config/base";
import { importBoundaries } from "@mga/eslint-config/boundaries";
import { restrictEnvAccess } from "@mga/eslint-config/env-access";
import { nextjsConfig } from "@mga/eslint-config/nextjs";

export default [...baseConfig, ...importBoundaries.admin, ...restrictEnvAccess("@mga/admin"), ...nextjsConfig];
