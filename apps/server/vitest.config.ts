import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["source"] },
  test: {
    globalSetup: ["@mga/core/testing/global-setup"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
