import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // `@/…` is the console's src folder, as in tsconfig.json's paths (Next reads those itself).
  resolve: { conditions: ["source"], alias: { "@": path.resolve(import.meta.dirname, "src") } },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // The browser suite drives the whole service; one step waits on the last.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
