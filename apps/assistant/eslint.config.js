import { baseConfig } from "@mga/eslint-config/base";
import { importBoundaries } from "@mga/eslint-config/boundaries";
import { restrictEnvAccess } from "@mga/eslint-config/env-access";

export default [...baseConfig, ...importBoundaries.assistant, ...restrictEnvAccess("@mga/assistant")];
