import { defineConfig } from "vitest/config";

/**
 * Shared vitest settings: sources resolved through the `source` export condition, and one
 * throwaway PostgreSQL per package test run (test/support/global-setup.ts re-exports
 * @mga/core/testing's globalSetup; each test file creates its own database).
 */
export function vitestConfig(options: { database?: boolean } = {}) {
  return defineConfig({
    resolve: { conditions: ["source"] },
    test: {
      ...(options.database === false ? {} : { globalSetup: ["./test/support/global-setup.ts"] }),
      testTimeout: 20_000,
      hookTimeout: 60_000,
    },
  });
}
