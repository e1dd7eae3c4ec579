import { defineConfig } from "tsup";

export default defineConfig({
  entry: { main: "src/main.ts", cli: "src/cli/cli.ts" },
  format: ["esm"],
  target: "node22",
  platform: "node",
  sourcemap: true,
  clean: true,
});
