import type { Server } from "node:http";

/** How long the server must have answered nothing, with nothing open, before it gives memory back. */
export const IDLE_BEFORE_RELEASE_MS = 10_000;
const CHECK_EVERY_MS = 2_500;

/** V8's collector as `--expose-gc` exposes it (apps/server/node-flags.json); the options are V8's. */
type ExposedGc = (options: { type: "major"; flavor: "last-resort"; execution: "sync" }) => void;

export interface IdleMemoryRelease {
  /** Counts the request until its response closes (tests; the listeners are watched by `start`). */
  track(res: { once(event: "close", listener: () => void): unknown }): void;
  /** Releases if the server has been quiet long enough since it last worked; true when it did. */
  check(): boolean;
}

/**
 * Gives memory back once the server goes quiet after work (docs/architecture.md, "Memory"). V8
 * keeps the pages a load peak grew its heap to, and Node never tells it that the process is
 * idle, so a server that served a burst holds that peak for good. One memory-reducing collection
 * (V8's "last resort" flavor: compacts, shrinks the young generation, returns free pages to the
 * system) after IDLE_BEFORE_RELEASE_MS without a request, and only when requests have come since
 * the last one, brings the idle process back near its size at start; then the C allocator is
 * asked for the pages freed outside V8, which it keeps otherwise. It runs only with no request
 * or stream open, so nobody waits for it; a request that arrives during it waits until it ends
 * (its duration is logged).
 */
export function idleMemoryRelease(
  options: {
    gc?: ExposedGc | undefined;
    /** Hands the C allocator's free pages back after the collection (allocator-trim.ts); absent off glibc. */
    trimAllocator?: (() => boolean) | undefined;
    now?: () => number;
    idleMs?: number;
    onRelease?: (release: { rssBeforeMiB: number; rssAfterMiB: number; ms: number }) => void;
  } = {},
): IdleMemoryRelease {
  const gc = options.gc;
  const now = options.now ?? Date.now;
  const idleMs = options.idleMs ?? IDLE_BEFORE_RELEASE_MS;
  let open = 0;
  let lastActivity = now();
  let workedSinceRelease = false;
  const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
  return {
    track(res) {
      open += 1;
      workedSinceRelease = true;
      lastActivity = now();
      res.once("close", () => {
        open -= 1;
        lastActivity = now();
      });
    },
    check() {
      if (!gc || open > 0 || !workedSinceRelease || now() - lastActivity < idleMs) return false;
      workedSinceRelease = false;
      const before = process.memoryUsage.rss();
      const started = now();
      gc({ type: "major", flavor: "last-resort", execution: "sync" });
      // After the collection: it frees the native memory of the objects it reclaims.
      options.trimAllocator?.();
      options.onRelease?.({
        rssBeforeMiB: mib(before),
        rssAfterMiB: mib(process.memoryUsage.rss()),
        ms: now() - started,
      });
      return true;
    },
  };
}

/** Watches the listeners' requests and checks every few seconds; `gc` is absent when the process runs without `--expose-gc`. */
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
