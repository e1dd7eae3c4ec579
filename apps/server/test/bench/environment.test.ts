import { afterEach, describe, expect, it, vi } from "vitest";

import { serviceEnvironment } from "../../src/bench/environment";

/**
 * The measured server's settings (bench and bench:compare alike): the run's own, plus the
 * settings an operator set to measure a build under them, so `IDLE_MEMORY_RELEASE=trim pnpm
 * bench` measures the trim-only server, not the default one.
 */
const input = {
  databaseUrl: "postgres://bench@127.0.0.1/bench",
  secretKey: "k".repeat(43),
  upstreamUrl: "http://127.0.0.1:1",
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the bench's server settings", () => {
  it("pass on the settings set in the bench's environment", () => {
    vi.stubEnv("IDLE_MEMORY_RELEASE", "trim");
    vi.stubEnv("MALLOC_ARENA_MAX", "2");
    const env = serviceEnvironment(input);
    expect(env).toMatchObject({ IDLE_MEMORY_RELEASE: "trim", MALLOC_ARENA_MAX: "2", DATABASE_URL: input.databaseUrl });
  });

  it("leave out those not set (or set empty), and nothing else of the bench's environment", () => {
    vi.stubEnv("IDLE_MEMORY_RELEASE", "");
    for (const name of ["MALLOC_ARENA_MAX", "DB_POOL_MAX", "NODE_OPTIONS"]) vi.stubEnv(name, undefined);
    vi.stubEnv("BENCH_SECONDS", "9");
    expect(Object.keys(serviceEnvironment(input)).sort()).toEqual([
      "ADMIN_API_PORT",
      "DATABASE_URL",
      "LOG_LEVEL",
      "MGA_PRINT_BANNER",
      "SECRET_KEY",
      "UPSTREAM_CHAT_URL",
    ]);
  });
});
