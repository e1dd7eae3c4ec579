import { vitestConfig } from "../vitest.base";

// Lints with the real packages' configs: the first file loads typescript-eslint's parser, which
// takes seconds on a busy machine, hence the shared base's longer timeout.
export default vitestConfig({ database: false });
