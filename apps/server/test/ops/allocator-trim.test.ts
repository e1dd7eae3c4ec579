import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

import { allocatorTrim } from "../../src/ops/allocator-trim";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (options: { type: "major"; execution: "sync" }) => void;
const MIB = 1024 * 1024;

describe("the C allocator's free pages handed back (glibc's malloc_trim)", () => {
  it("gives back memory freed in the middle of the heap, which stays resident otherwise", async () => {
    const trim = allocatorTrim();
    expect(trim, "this Linux runs glibc: the trim must be found").toBeDefined();
    // 160 MiB of native buffers, then all but one in eight freed: the freed ones lie between
    // live ones, so nothing is at the heap's top for `free` to return on its own.
    const kept = Array.from({ length: 40_000 }, () => Buffer.alloc(4096, 1)).filter((_, i) => i % 8 === 0);
    gc({ type: "major", execution: "sync" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = process.memoryUsage.rss();
    expect(trim?.()).toBe(true);
    const after = process.memoryUsage.rss();
    expect((before - after) / MIB).toBeGreaterThan(60);
    expect(kept.every((buffer) => buffer[0] === 1)).toBe(true);
  });
});
