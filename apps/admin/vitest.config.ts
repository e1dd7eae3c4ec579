import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["source"] },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // The browser suite drives the whole service; one step waits on the last.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
