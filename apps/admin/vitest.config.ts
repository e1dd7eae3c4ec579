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
    // A page updates after a server action's round trip, which on a loaded 2-core CI machine
    // can take seconds: expect.poll waits up to 10 s for it (its default of 1 s made CI flaky).
    expect: { poll: { timeout: 10_000 } },
  },
});
