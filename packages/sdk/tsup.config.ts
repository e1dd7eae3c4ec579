import { tsupConfig } from "../../tooling/tsup.base";

// Partners install this package: ESM and CommonJS with their declarations, for Node 20 and later (no browser build: keys stay server-side).
export default tsupConfig({ entry: { index: "src/index.ts" }, format: ["esm", "cjs"], dts: true, target: "node20" });
