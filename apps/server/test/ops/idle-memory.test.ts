import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";

import { IDLE_BEFORE_RELEASE_MS, idleMemoryRelease } from "../../src/ops/idle-memory";

/** A response whose close the test decides, and a clock it moves. */
function harness(withGc = true) {
  let time = 1_000_000;
  const collections: unknown[] = [];
  const steps: string[] = [];
  const release = idleMemoryRelease({
    gc: withGc
      ? (options) => {
          collections.push(options);
          steps.push("collect");
        }
      : undefined,
    trimAllocator: () => steps.push("trim") > 0,
    now: () => time,
  });
  const request = () => {
    const res = new EventEmitter();
    release.track(res);
    return { close: () => res.emit("close") };
  };
  return { release, request, collections, steps, wait: (ms: number) => (time += ms) };
}

describe("memory given back when idle", () => {
  it("collects once, memory-reducing, then trims the C allocator, when the server has been quiet for the idle time after work", () => {
    const { release, request, collections, steps, wait } = harness();
    request().close();
    wait(IDLE_BEFORE_RELEASE_MS - 1);
    expect(release.check()).toBe(false);
    wait(1);
    expect(release.check()).toBe(true);
    expect(collections).toEqual([{ type: "major", flavor: "last-resort", execution: "sync" }]);
    // The collection frees the native memory of what it reclaims: the trim comes after it.
    expect(steps).toEqual(["collect", "trim"]);
    // Nothing served since: nothing to give back again.
    wait(10 * IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe(false);
    expect(collections).toHaveLength(1);
  });

  it("never while a request or stream is open, however long it lasts, and counts from when it closes", () => {
    const { release, request, collections, wait } = harness();
    const stream = request();
    wait(10 * IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe(false);
    stream.close();
    wait(IDLE_BEFORE_RELEASE_MS / 2);
    expect(release.check()).toBe(false);
    wait(IDLE_BEFORE_RELEASE_MS / 2);
    expect(release.check()).toBe(true);
    expect(collections).toHaveLength(1);
  });

  it("not at start (nothing grown yet), and again after new work", () => {
    const { release, request, collections, wait } = harness();
    wait(10 * IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe(false);
    request().close();
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe(true);
    request().close();
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe(true);
    expect(collections).toHaveLength(2);
  });

  it("does nothing in a process started without --expose-gc", () => {
    const { release, request, steps, wait } = harness(false);
    request().close();
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe(false);
    expect(steps).toEqual([]);
  });
});
