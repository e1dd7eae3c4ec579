import { defineConfig, type Options } from "tsup";

/** Shared tsup settings: ESM for Node 22+, source maps, a clean dist/ on every build. */
export function tsupConfig(options: Options) {
  return defineConfig({
    format: ["esm"],
    target: "node22",
    platform: "node",
    sourcemap: true,
    clean: true,
    ...options,
  });
}
