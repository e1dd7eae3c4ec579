import { describe, it } from "vitest";

import { batchOf, buildRoutes, runBatch, surfaceArb, useFuzzFixture } from "../support/fuzz";

/**
 * Fuzzing the hosted chat (/embed): the launch, session and chat routes. Each generated request is malformed in a way that can never be
 * accepted and must be answered with a 4xx (never a 5xx, never an error log line); afterwards
 * nothing in the database has changed. The fixture and the malformations: test/support/fuzz.ts.
 */
useFuzzFixture();

describe("fuzzing: malformed requests are 4xx errors and change nothing", () => {
  const { title, numRuns, seed } = batchOf("embed");

  it(`${title}: ${numRuns} requests`, { timeout: 60_000 }, async () => {
    await runBatch(title, surfaceArb(buildRoutes()["embed"]), numRuns, seed);
  });
});
