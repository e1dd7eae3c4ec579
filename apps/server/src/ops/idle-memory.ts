import type { Server } from "node:http";

/**
 * How long the server must have answered nothing, with nothing open, before it hands the C
 * allocator's free pages back.
 */
export const QUIET_BEFORE_TRIM_MS = 2_000;
/** How long it must stay so before it gives V8's memory back too. */
export const IDLE_BEFORE_RELEASE_MS = 10_000;
const CHECK_EVERY_MS = 1_000;

/** V8's collector as `--expose-gc` exposes it (apps/server/node-flags.json); the options are V8's. */
type ExposedGc = (options: { type: "major"; flavor: "last-resort"; execution: "sync" }) => void;

/**
 * The IDLE_MEMORY_RELEASE setting: both steps (`full`), the trim alone, or neither. V8's
 * memory-reducing collection drops the optimized code of objects no longer alive, so the next
 * burst runs slower until it is compiled again (docs/architecture.md, "What the release costs the
 * next burst"); `trim` keeps it for servers that have the memory to spare.
 */
export const IDLE_MEMORY_RELEASE_MODES = ["full", "trim", "off"] as const;
export type IdleMemoryReleaseMode = (typeof IDLE_MEMORY_RELEASE_MODES)[number];

/** The steps a mode allows, of those this process can take (`gc` needs --expose-gc, the trim glibc). */
export function idleMemorySteps(
  mode: IdleMemoryReleaseMode,
  available: { gc: ExposedGc | undefined; trimAllocator: (() => boolean) | undefined },
): { gc: ExposedGc | undefined; trimAllocator: (() => boolean) | undefined } {
  return {
    gc: mode === "full" ? available.gc : undefined,
    trimAllocator: mode === "off" ? undefined : available.trimAllocator,
  };
}

/**
 * The RSS under which an idle server keeps V8's heap (IDLE_MEMORY_RELEASE_ABOVE_MIB's default):
 * the idle target of issue 27 (README, "Benchmark"). Below it, the memory the collection would
 * give back is not needed, and the optimized code it would drop is.
 */
export const RELEASE_ABOVE_MIB = 150;

/**
 * What a check did: the C allocator's free pages handed back, V8's memory too, or V8's heap
 * kept because the process holds no more than the release's floor.
 */
export type IdleStep = "trim" | "release" | "keep";

export interface IdleMemoryRelease {
  /** Counts the request until its response closes (tests; the listeners are watched by `start`). */
  track(res: { once(event: "close", listener: () => void): unknown }): void;
  /** Trims or releases if the server has been quiet long enough since it last worked. */
  check(): IdleStep | undefined;
}

/**
 * Gives memory back once the server goes quiet after work (docs/architecture.md, "Memory"), in
 * two steps, each only when requests have come since it last ran and with no request or stream
 * open.
 * - After QUIET_BEFORE_TRIM_MS, the C allocator's trim: what Node allocated outside V8 for the
 *   last work (sockets, parsers, buffers) is freed but scattered between live allocations, and
 *   glibc keeps those pages. Handed back now, they are not resident under the next burst. No
 *   collection with it: tried, it left V8's freed pages committed and made the next burst's
 *   opening slower ("The trim comes first" in docs/architecture.md).
 * - After IDLE_BEFORE_RELEASE_MS, one memory-reducing collection (V8's "last resort" flavor:
 *   compacts, shrinks the young generation, returns free pages to the system), then the trim
 *   again for the native memory of what it collected. V8 keeps the pages a load peak grew its
 *   heap to, and Node never tells it that the process is idle, so a server that served a burst
 *   would hold that peak for good. Only above `releaseAboveMiB` of RSS: the collection also
 *   drops optimized code that the next requests compile again, a cost worth paying for the
 *   memory of a peak, not after every pause of light traffic.
 * A request that arrives during either waits until it ends (each step's duration is logged).
 */
export function idleMemoryRelease(
  options: {
    gc?: ExposedGc | undefined;
    /** Hands the C allocator's free pages back (allocator-trim.ts); absent off glibc. */
    trimAllocator?: (() => boolean) | undefined;
    now?: () => number;
    quietMs?: number;
    idleMs?: number;
    /** V8's heap is collected only while the RSS is above this many MiB (0: always). */
    releaseAboveMiB?: number;
    /** The process's RSS in bytes (tests give theirs). */
    rss?: () => number;
    /** Told of each step (trim, release or keep), with the RSS around it and how long it held the thread. */
    onStep?: (done: { step: IdleStep; rssBeforeMiB: number; rssAfterMiB: number; ms: number }) => void;
  } = {},
): IdleMemoryRelease {
  const { gc, trimAllocator } = options;
  const now = options.now ?? Date.now;
  const quietMs = options.quietMs ?? QUIET_BEFORE_TRIM_MS;
  const idleMs = options.idleMs ?? IDLE_BEFORE_RELEASE_MS;
  const releaseAboveMiB = options.releaseAboveMiB ?? 0;
  const rss = options.rss ?? process.memoryUsage.rss;
  let open = 0;
  let lastActivity = now();
  let workedSinceTrim = false;
  let workedSinceRelease = false;
  let keptThisSpell = false;
  const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);

  function giveBack(step: Exclude<IdleStep, "keep">): IdleStep {
    workedSinceTrim = false;
    if (step === "release") workedSinceRelease = false;
    const before = rss();
    const started = now();
    if (step === "release") gc?.({ type: "major", flavor: "last-resort", execution: "sync" });
    // After the collection: it frees the native memory of the objects it reclaims.
    trimAllocator?.();
    options.onStep?.({
      step,
      rssBeforeMiB: mib(before),
      rssAfterMiB: mib(rss()),
      ms: now() - started,
    });
    return step;
  }

  /** Told once per quiet spell; each check reads the RSS again (what idle timers allocate can take it above). */
  function keep(held: number): IdleStep {
    keptThisSpell = true;
    options.onStep?.({ step: "keep", rssBeforeMiB: held, rssAfterMiB: held, ms: 0 });
    return "keep";
  }

  return {
    track(res) {
      open += 1;
      workedSinceTrim = true;
      workedSinceRelease = true;
      keptThisSpell = false;
      lastActivity = now();
      res.once("close", () => {
        open -= 1;
        lastActivity = now();
      });
    },
    check() {
      if (open > 0) return undefined;
      const quiet = now() - lastActivity;
      if (gc && workedSinceRelease && quiet >= idleMs) {
        const held = mib(rss());
        if (held > releaseAboveMiB) return giveBack("release");
        if (!keptThisSpell) return keep(held);
      }
      if (trimAllocator && workedSinceTrim && quiet >= quietMs) return giveBack("trim");
      return undefined;
    },
  };
}

/** Watches the listeners' requests and checks every second; `gc` is absent when the process runs without `--expose-gc`, `trimAllocator` off glibc. */
export function startIdleMemoryRelease(
  listeners: Server[],
  options: Parameters<typeof idleMemoryRelease>[0] = {},
): IdleMemoryRelease & { stop(): void } {
  const release = idleMemoryRelease(options);
  const onRequest = (_req: unknown, res: { once(event: "close", listener: () => void): unknown }) => release.track(res);
  for (const listener of listeners) listener.on("request", onRequest);
  const timer = setInterval(() => release.check(), CHECK_EVERY_MS);
  timer.unref();
  return {
    ...release,
    stop() {
      clearInterval(timer);
      for (const listener of listeners) listener.off("request", onRequest);
    },
  };
}

/** The collector `--expose-gc` puts on the global object, if the process was started with it. */
export function exposedGc(): ExposedGc | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === "function" ? (gc as ExposedGc) : undefined;
}
