import { baseConfig } from "./base.js";
import { restrictEnvAccess } from "./env-access.js";

export default [...baseConfig, ...restrictEnvAccess("@mga/eslint-config")];
