import { describe, expect, it } from "vitest";

import { HEALTHY_AFTER_MS, nextRestart } from "../../src/cluster/restart-backoff";

/** When the primary replaces a dead worker (WORKERS > 1): at once after a long life, with a growing delay in a crash loop. */
describe("restart backoff", () => {
  it("replaces a worker that had served a while at once, and forgets earlier young deaths", () => {
    expect(nextRestart(0, HEALTHY_AFTER_MS)).toEqual({ delayMs: 0, youngDeaths: 0 });
    expect(nextRestart(6, 3_600_000)).toEqual({ delayMs: 0, youngDeaths: 0 });
  });

  it("doubles the delay for each worker of a slot that dies young in a row, up to 15 s", () => {
    let youngDeaths = 0;
    const delays: number[] = [];
    for (let death = 0; death < 10; death += 1) {
      const next = nextRestart(youngDeaths, 500);
      delays.push(next.delayMs);
      youngDeaths = next.youngDeaths;
    }
    expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000, 15_000]);
    // A crash loop of a minute restarts a slot about a dozen times, not thousands.
    let elapsed = 0;
    let restarts = 0;
    for (youngDeaths = 0; elapsed < 60_000; restarts += 1) {
      const next = nextRestart(youngDeaths, 100);
      elapsed += next.delayMs + 100;
      youngDeaths = next.youngDeaths;
    }
    expect(restarts).toBeLessThan(15);
  });
});
