import os from "node:os";
import { describe, expect, it } from "vitest";

import { loadEnv } from "../../src/env";

/** The settings given, nothing else: what a deploy sets in the process environment. */
const withOnly = (settings: Record<string, string>) => loadEnv({ NODE_ENV: "production", ...settings });

/** WORKERS, validated with every other setting at start (README, "Settings"). */
describe("the WORKERS setting", () => {
  it("is 1 unless set: one process, as before", () => {
    expect(withOnly({}).WORKERS).toBe(1);
    // Set but empty, as in an env file's `WORKERS=`: unset, like the other settings.
    expect(withOnly({ WORKERS: "" }).WORKERS).toBe(1);
  });

  it("takes a number of workers, or auto for one per core this process may use", () => {
    expect(withOnly({ WORKERS: "4" }).WORKERS).toBe(4);
    expect(withOnly({ WORKERS: "auto" }).WORKERS).toBe(Math.min(64, os.availableParallelism()));
  });

  it.each(["0", "-1", "1.5", "65", "all", "2 "])("refuses %j with a message saying what it takes", (value) => {
    expect(() => withOnly({ WORKERS: value })).toThrow(/WORKERS: a number from 1 to 64, or auto/);
  });
});
