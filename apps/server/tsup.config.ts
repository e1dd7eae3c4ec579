import { rawText } from "../../tooling/raw-text-plugin";
import { tsupConfig } from "../../tooling/tsup.base";

export default tsupConfig({
  // autocannon stays a package of its own (it loads its own worker and WebAssembly files).
  external: ["autocannon"],
  // The pages' static files (src/http/**/static/), imported with `?raw`.
  esbuildPlugins: [rawText()],
  entry: {
    main: "src/main.ts",
    cli: "src/cli/cli.ts",
    bench: "src/bench/bench.ts",
    soak: "src/bench/soak.ts",
    "compare-builds": "src/bench/compare-builds.ts",
    "load-generator": "src/bench/load-generator.ts",
    "bare-server": "src/bench/bare-server.ts",
    "bare-proxy": "src/bench/bare-proxy.ts",
  },
});
