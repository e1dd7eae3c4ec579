import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";

import { loadEnv } from "../../src/env";
import {
  IDLE_BEFORE_RELEASE_MS,
  idleMemoryRelease,
  idleMemorySteps,
  QUIET_BEFORE_TRIM_MS,
  RELEASE_ABOVE_MIB,
} from "../../src/ops/idle-memory";

const MiB = 1024 * 1024;

/** A response whose close the test decides, and a clock it moves. */
function harness(options: { gc?: boolean; trim?: boolean; releaseAboveMiB?: number } = {}) {
  let time = 1_000_000;
  let rss = 400 * MiB;
  const collections: unknown[] = [];
  const steps: string[] = [];
  const release = idleMemoryRelease({
    gc:
      options.gc === false
        ? undefined
        : (collection) => {
            collections.push(collection);
            steps.push("collect");
          },
    trimAllocator: options.trim === false ? undefined : () => steps.push("trim") > 0,
    now: () => time,
    releaseAboveMiB: options.releaseAboveMiB,
    rss: () => rss,
  });
  const request = () => {
    const res = new EventEmitter();
    release.track(res);
    return { close: () => res.emit("close") };
  };
  return {
    release,
    request,
    collections,
    steps,
    wait: (ms: number) => (time += ms),
    holdMiB: (mib: number) => (rss = mib * MiB),
  };
}

describe("memory given back when idle", () => {
  it("trims the C allocator, without a collection, once the server has been quiet a moment after work", () => {
    const { release, request, steps, wait } = harness();
    request().close();
    wait(QUIET_BEFORE_TRIM_MS - 1);
    expect(release.check()).toBeUndefined();
    wait(1);
    expect(release.check()).toBe("trim");
    // Once: nothing served since, nothing more to trim until the memory is given back.
    wait(1);
    expect(release.check()).toBeUndefined();
    expect(steps).toEqual(["trim"]);
  });

  it("collects once, memory-reducing, then trims again, when the server has been quiet for the idle time after work", () => {
    const { release, request, collections, steps, wait } = harness();
    request().close();
    wait(QUIET_BEFORE_TRIM_MS);
    expect(release.check()).toBe("trim");
    wait(IDLE_BEFORE_RELEASE_MS - QUIET_BEFORE_TRIM_MS - 1);
    expect(release.check()).toBeUndefined();
    wait(1);
    expect(release.check()).toBe("release");
    expect(collections).toEqual([{ type: "major", flavor: "last-resort", execution: "sync" }]);
    // The collection frees the native memory of what it reclaims: the trim comes after it.
    expect(steps).toEqual(["trim", "collect", "trim"]);
    // Nothing served since: nothing to give back again.
    wait(10 * IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBeUndefined();
    expect(collections).toHaveLength(1);
  });

  it("gives memory back at once when no check came while it was only quiet", () => {
    const { release, request, steps, wait } = harness();
    request().close();
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe("release");
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBeUndefined();
    expect(steps).toEqual(["collect", "trim"]);
  });

  it("never while a request or stream is open, however long it lasts, and counts from when it closes", () => {
    const { release, request, steps, wait } = harness();
    const stream = request();
    wait(10 * IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBeUndefined();
    stream.close();
    wait(QUIET_BEFORE_TRIM_MS - 1);
    expect(release.check()).toBeUndefined();
    wait(1);
    expect(release.check()).toBe("trim");
    const open = request();
    wait(10 * IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBeUndefined();
    open.close();
    wait(IDLE_BEFORE_RELEASE_MS - 1);
    // Work came since the trim: the next check trims again rather than wait.
    expect(release.check()).toBe("trim");
    wait(1);
    expect(release.check()).toBe("release");
    expect(steps).toEqual(["trim", "trim", "collect", "trim"]);
  });

  it("not at start (nothing grown yet), and again after new work", () => {
    const { release, request, collections, wait } = harness();
    wait(10 * IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBeUndefined();
    request().close();
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe("release");
    request().close();
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe("release");
    expect(collections).toHaveLength(2);
  });

  it("keeps V8's heap while the RSS is at or under the floor, and collects once a peak takes it above", () => {
    const { release, request, collections, steps, wait, holdMiB } = harness({ releaseAboveMiB: 150 });
    // Light traffic: a request, then a pause past the idle time, again and again.
    holdMiB(150);
    for (let pause = 0; pause < 3; pause += 1) {
      request().close();
      wait(QUIET_BEFORE_TRIM_MS);
      expect(release.check()).toBe("trim");
      wait(IDLE_BEFORE_RELEASE_MS);
      expect(release.check()).toBe("keep");
      // Told once per quiet spell.
      wait(IDLE_BEFORE_RELEASE_MS);
      expect(release.check()).toBeUndefined();
    }
    expect(collections).toEqual([]);
    // A burst grew the process: its memory is given back.
    request().close();
    holdMiB(151);
    wait(QUIET_BEFORE_TRIM_MS);
    expect(release.check()).toBe("trim");
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe("release");
    expect(collections).toHaveLength(1);
    expect(steps.slice(-3)).toEqual(["trim", "collect", "trim"]);
  });

  it("collects later in the same quiet spell if the idle process grows above the floor", () => {
    const { release, request, collections, wait, holdMiB } = harness({ releaseAboveMiB: 150 });
    holdMiB(149);
    request().close();
    wait(QUIET_BEFORE_TRIM_MS);
    expect(release.check()).toBe("trim");
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe("keep");
    wait(1_000);
    expect(release.check()).toBeUndefined();
    holdMiB(151);
    wait(1_000);
    expect(release.check()).toBe("release");
    // Given back: nothing more until new work.
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBeUndefined();
    expect(collections).toHaveLength(1);
  });

  it("reads the RSS after the trim: a trim that brings it to the floor spares the collection", () => {
    const { release, request, collections, wait, holdMiB } = harness({ releaseAboveMiB: 150 });
    holdMiB(180);
    request().close();
    wait(QUIET_BEFORE_TRIM_MS);
    expect(release.check()).toBe("trim");
    holdMiB(140);
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe("keep");
    expect(collections).toEqual([]);
  });

  it("with no check in the quiet spell, keeps the heap first, then trims at the next check", () => {
    const { release, request, steps, wait, holdMiB } = harness({ releaseAboveMiB: 150 });
    holdMiB(120);
    request().close();
    wait(IDLE_BEFORE_RELEASE_MS);
    expect(release.check()).toBe("keep");
    expect(release.check()).toBe("trim");
    expect(release.check()).toBeUndefined();
    expect(steps).toEqual(["trim"]);
  });

  it("only trims in a process started without --expose-gc, and only collects where there is no allocator to trim", () => {
    const withoutGc = harness({ gc: false });
    withoutGc.request().close();
    withoutGc.wait(IDLE_BEFORE_RELEASE_MS);
    expect(withoutGc.release.check()).toBe("trim");
    withoutGc.wait(IDLE_BEFORE_RELEASE_MS);
    expect(withoutGc.release.check()).toBeUndefined();
    expect(withoutGc.steps).toEqual(["trim"]);

    const withoutTrim = harness({ trim: false });
    withoutTrim.request().close();
    withoutTrim.wait(QUIET_BEFORE_TRIM_MS);
    expect(withoutTrim.release.check()).toBeUndefined();
    withoutTrim.wait(IDLE_BEFORE_RELEASE_MS);
    expect(withoutTrim.release.check()).toBe("release");
    expect(withoutTrim.steps).toEqual(["collect"]);
  });
});

/** IDLE_MEMORY_RELEASE, validated with every other setting at start (README, "Configuration"). */
describe("the IDLE_MEMORY_RELEASE setting", () => {
  const withOnly = (settings: Record<string, string>) => loadEnv({ NODE_ENV: "production", ...settings });
  const gc = () => undefined;
  const trimAllocator = () => true;

  it("is full unless set: the trim, then V8's heap", () => {
    expect(withOnly({}).IDLE_MEMORY_RELEASE).toBe("full");
    expect(withOnly({ IDLE_MEMORY_RELEASE: "" }).IDLE_MEMORY_RELEASE).toBe("full");
    expect(idleMemorySteps("full", { gc, trimAllocator })).toEqual({ gc, trimAllocator });
  });

  it("trim keeps V8's heap (and its compiled code) but still trims; off gives nothing back", () => {
    expect(withOnly({ IDLE_MEMORY_RELEASE: "trim" }).IDLE_MEMORY_RELEASE).toBe("trim");
    expect(idleMemorySteps("trim", { gc, trimAllocator })).toEqual({ gc: undefined, trimAllocator });
    expect(withOnly({ IDLE_MEMORY_RELEASE: "off" }).IDLE_MEMORY_RELEASE).toBe("off");
    expect(idleMemorySteps("off", { gc, trimAllocator })).toEqual({ gc: undefined, trimAllocator: undefined });
  });

  it("a trim-only server trims when quiet and never collects, however long it stays idle", () => {
    const collections: unknown[] = [];
    let time = 0;
    const release = idleMemoryRelease({
      ...idleMemorySteps("trim", { gc: (collection) => collections.push(collection), trimAllocator }),
      now: () => time,
    });
    const res = new EventEmitter();
    release.track(res);
    res.emit("close");
    time += QUIET_BEFORE_TRIM_MS;
    expect(release.check()).toBe("trim");
    time += 10 * IDLE_BEFORE_RELEASE_MS;
    expect(release.check()).toBeUndefined();
    expect(collections).toEqual([]);
  });

  it(`collects only above ${RELEASE_ABOVE_MIB} MiB of RSS unless IDLE_MEMORY_RELEASE_ABOVE_MIB says otherwise`, () => {
    expect(withOnly({}).IDLE_MEMORY_RELEASE_ABOVE_MIB).toBe(RELEASE_ABOVE_MIB);
    expect(withOnly({ IDLE_MEMORY_RELEASE_ABOVE_MIB: "" }).IDLE_MEMORY_RELEASE_ABOVE_MIB).toBe(RELEASE_ABOVE_MIB);
    expect(withOnly({ IDLE_MEMORY_RELEASE_ABOVE_MIB: "0" }).IDLE_MEMORY_RELEASE_ABOVE_MIB).toBe(0);
    expect(withOnly({ IDLE_MEMORY_RELEASE_ABOVE_MIB: "512" }).IDLE_MEMORY_RELEASE_ABOVE_MIB).toBe(512);
  });

  it.each(["-1", "1.5", "lots", "150MiB"])("refuses IDLE_MEMORY_RELEASE_ABOVE_MIB=%j, naming the setting", (value) => {
    expect(() => withOnly({ IDLE_MEMORY_RELEASE_ABOVE_MIB: value })).toThrow(/IDLE_MEMORY_RELEASE_ABOVE_MIB/);
  });

  it.each(["FULL", "none", "1", "trim "])("refuses %j, naming the setting", (value) => {
    expect(() => withOnly({ IDLE_MEMORY_RELEASE: value })).toThrow(
      /IDLE_MEMORY_RELEASE: full \(the default\), trim or off/,
    );
  });
});
