import { tsupConfig } from "../../tooling/tsup.base";

export default tsupConfig({
  // autocannon stays a package of its own (it loads its own worker and WebAssembly files).
  external: ["autocannon"],
  entry: {
    main: "src/main.ts",
    cli: "src/cli/cli.ts",
    bench: "src/bench/bench.ts",
    soak: "src/bench/soak.ts",
    "load-generator": "src/bench/load-generator.ts",
    "bare-server": "src/bench/bare-server.ts",
  },
});
