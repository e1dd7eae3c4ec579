import { tsupConfig } from "../../tooling/tsup.base";

export default tsupConfig({
  entry: { main: "src/main.ts", cli: "src/cli/cli.ts", bench: "src/bench/bench.ts", soak: "src/bench/soak.ts", "load-worker": "src/bench/load-worker.ts", "bare-server": "src/bench/bare-server.ts" },
});
