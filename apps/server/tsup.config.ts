import { defineConfig } from "tsup";

export default defineConfig({
  entry: { main: "src/main.ts", cli: "src/cli/cli.ts", bench: "src/bench/bench.ts", "load-worker": "src/bench/load-worker.ts" },
  format: ["esm"],
  target: "node22",
  platform: "node",
  sourcemap: true,
  clean: true,
});
