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

/** In the primary: relays each worker's key changes to every other worker, and answers it once they have applied them. */
export function relayKeyChanges(): void {
  let nextRelay = 0;
  const waiting = new Map<number, () => void>();
  cluster.on("message", (from, message: unknown) => {
    if (isMessage<AppliedMessage>(message, "mga:key-change-applied")) {
      waiting.get(message.id)?.();
      return;
    }
    if (!isMessage<ChangeMessage>(message, "mga:key-change")) return;
    const siblings = Object.values(cluster.workers ?? {}).filter(
      (worker) => worker !== undefined && worker !== from && worker.isConnected(),
    );
    const applied = siblings.map((worker) => {
      const id = nextRelay++;
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        };
        const timer = setTimeout(done, RELAY_WAIT_MS);
        waiting.set(id, done);
        worker?.send({ type: "mga:key-change", id, change: message.change } satisfies ChangeMessage);
      });
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
  process.on("message", (message: unknown) => {
    if (!isMessage<ChangeMessage>(message, "mga:key-change")) return;
    cache.apply(message.change);
    if (process.connected) process.send?.({ type: "mga:key-change-applied", id: message.id } satisfies AppliedMessage);
  });
  let nextChange = 0;
  const waiting = new Map<number, () => void>();
  process.on("message", (message: unknown) => {
    if (isMessage<AppliedMessage>(message, "mga:key-change-applied")) waiting.get(message.id)?.();
  });
  cache.setSiblings(
    (change) =>
      new Promise<void>((resolve) => {
        // A worker whose primary is gone is exiting; its siblings too.
        if (!process.connected) return resolve();
        const id = nextChange++;
        const done = () => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        };
        const timer = setTimeout(done, RELAY_WAIT_MS + 500);
        waiting.set(id, done);
        process.send?.({ type: "mga:key-change", id, change } satisfies ChangeMessage);
      }),
  );
}
