import { describe, expect, it } from "vitest";

import { utcDay } from "../../src/usage/usage-values";

/** utcDay keeps the last day it computed: whatever order instants come in, each gets its own UTC day. */
describe("utcDay", () => {
  it("is the instant's UTC date, in any order of instants (around midnights too)", () => {
    const midnight = Date.UTC(2026, 10, 26);
    const instants = [midnight - 1, midnight, midnight - 1, midnight + 86_399_999, midnight + 86_400_000, midnight - 1];
    // And a few thousand spread over centuries, before 1970 too, in a fixed pseudo-random order.
    let seed = 42;
    for (let i = 0; i < 5_000; i += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      instants.push(Math.round((seed / 2_147_483_648) * 12e12 - 4e12), midnight + (seed % 11) - 5);
    }
    for (const ms of instants) expect(utcDay(new Date(ms))).toBe(new Date(ms).toISOString().slice(0, 10));
    expect(utcDay(new Date(midnight - 1))).toBe("2026-11-25");
    expect(utcDay(new Date(midnight))).toBe("2026-11-26");
  });
});
