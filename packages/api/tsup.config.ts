import { tsupConfig } from "../../tooling/tsup.base";

export default tsupConfig({ entry: { index: "src/index.ts", "closed-values": "src/closed-values.ts" } });
