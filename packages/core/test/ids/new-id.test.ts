import { describe, expect, it } from "vitest";

import { newId, newTimeOrderedId, randomBase62 } from "../../src/ids/new-id";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("random identifiers", () => {
  it("are typed, of base62 characters only, and never repeat (across many refills of the byte pool)", () => {
    const ids = Array.from({ length: 20_000 }, () => newId("msg"));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9A-Za-z]{22}$/);
  });

  it("draws every character equally often (no modulo bias: the first 8 characters would come 25% more often)", () => {
    const counts = new Map<string, number>();
    const text = randomBase62(62 * 4_000);
    for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect([...counts.keys()].sort().join("")).toBe([...ALPHABET].sort().join(""));
    for (const count of counts.values()) expect(Math.abs(count - 4_000)).toBeLessThan(4_000 * 0.12);
  });

  it("time-ordered ids have the same shape, sort by their time in byte order, and differ within one millisecond", () => {
    const times = [0, 61, 62, 1_799_999_999_999, 1_800_000_000_000, 1_800_000_000_001, 62 ** 8 - 1];
    const ids = times.map((time) => newTimeOrderedId("req", time));
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{22}$/);
    // Byte order, as PostgreSQL's "C" collation and Buffer.compare see it.
    expect([...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(ids);
    const sameMillisecond = Array.from({ length: 1_000 }, () => newTimeOrderedId("req", 1_800_000_000_000));
    expect(new Set(sameMillisecond).size).toBe(sameMillisecond.length);
    expect(new Set(sameMillisecond.map((id) => id.slice(0, 12))).size).toBe(1);
  });
});
