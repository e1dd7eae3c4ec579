import { vitestConfig } from "../../tooling/vitest.base";

export default vitestConfig({ database: false });
