import cluster from "node:cluster";

import type { KeyCache, KeyChange } from "@mga/core/keys";

/*
 * With WORKERS > 1, a key revoked (or limited, or its organization changed) through one worker
 * must be refused by every worker on the very next request, as it is by a single process: the
 * NOTIFY every cache listens to arrives a few milliseconds later, after the revoking request's
 * answer. So the worker that made the change tells the primary, which tells every other worker;
 * each drops the entries and acknowledges; only then is the revoking request answered
 * (publishKeyChange's onCommit). A worker that does not answer in time (busy past RELAY_WAIT_MS,
 * or dying) still gets the NOTIFY: the wait is bounded, never a hang.
 */

/** The longest a change's request waits for its siblings' acknowledgements. */
export const RELAY_WAIT_MS = 1_000;

/** Worker → primary: a change made here; primary → worker: apply it. */
interface ChangeMessage {
  type: "mga:key-change";
  id: number;
  change: KeyChange;
}
/** Worker → primary: applied; primary → the worker that made it: every sibling has applied it (or timed out). */
interface AppliedMessage {
  type: "mga:key-change-applied";
  id: number;
}

const isMessage = <T extends { type: string }>(message: unknown, type: T["type"]): message is T =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;

/** Acknowledgements awaited by id, each for at most a given time: then it counts as given. */
function acknowledgements() {
  let nextId = 0;
  const waiting = new Map<number, () => void>();
  return {
    /** A new id, and a promise that resolves when `received(id)` is called or after `ms`. */
    expect(ms: number): { id: number; settled: Promise<void> } {
      const id = nextId++;
      const settled = new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        }
        waiting.set(id, done);
      });
      return { id, settled };
    },
    received(id: number): void {
      waiting.get(id)?.();
    },
  };
}

/** In the primary: relays each worker's key changes to every other worker, and answers it once they have applied them. */
export function relayKeyChanges(): void {
  const acks = acknowledgements();
  cluster.on("message", (from, message: unknown) => {
    if (isMessage<AppliedMessage>(message, "mga:key-change-applied")) return acks.received(message.id);
    if (!isMessage<ChangeMessage>(message, "mga:key-change")) return;
    const siblings = Object.values(cluster.workers ?? {}).filter(
      (worker) => worker !== undefined && worker !== from && worker.isConnected(),
    );
    const applied = siblings.map((worker) => {
      const { id, settled } = acks.expect(RELAY_WAIT_MS);
      worker?.send({ type: "mga:key-change", id, change: message.change } satisfies ChangeMessage);
      return settled;
    });
    void Promise.all(applied).then(() => {
      if (from.isConnected()) from.send({ type: "mga:key-change-applied", id: message.id } satisfies AppliedMessage);
    });
  });
}

/**
 * In a worker: applies the changes its siblings made (relayed by the primary) to `cache`, and
 * makes `cache` tell the siblings of the changes made here, resolving once they have applied
 * them (or after RELAY_WAIT_MS and a little: the primary's own wait, then its answer).
 */
export function shareKeyChangesWithSiblings(cache: KeyCache): void {
  const acks = acknowledgements();
  process.on("message", (message: unknown) => {
    if (isMessage<AppliedMessage>(message, "mga:key-change-applied")) return acks.received(message.id);
    if (!isMessage<ChangeMessage>(message, "mga:key-change")) return;
    cache.apply(message.change);
    if (process.connected) process.send?.({ type: "mga:key-change-applied", id: message.id } satisfies AppliedMessage);
  });
  cache.setSiblings(async (change) => {
    // A worker whose primary is gone is exiting; its siblings too.
    if (!process.connected) return;
    const { id, settled } = acks.expect(RELAY_WAIT_MS + 500);
    process.send?.({ type: "mga:key-change", id, change } satisfies ChangeMessage);
    await settled;
  });
}
