import cluster, { type Worker } from "node:cluster";

import type { Logger } from "../log";
import { nextRestart } from "./restart-backoff";
import { isWorkerListening } from "./worker-messages";

/** The workers of one primary: started, replaced when they die, drained on stop. */
export interface WorkerSupervisor {
  /** Resolves with the public base URL once every worker listens; rejects if one dies before it first listened. */
  readonly listening: Promise<string>;
  /**
   * Sends SIGTERM to every worker (each drains as a single server process does: its requests
   * and streams finish) and replaces none. Resolves once all have exited: true if every one
   * exited 0. Any still running after `deadlineMs` is killed.
   */
  stop(deadlineMs: number): Promise<boolean>;
}

/** One place in the pool: its current worker, and how its previous workers died. */
interface Slot {
  worker: Worker | undefined;
  startedAt: number;
  youngDeaths: number;
  listened: boolean;
  restart: NodeJS.Timeout | undefined;
}

export function superviseWorkers(options: { count: number; logger: Logger }): WorkerSupervisor {
  const { logger } = options;
  const slots: Slot[] = Array.from({ length: options.count }, () => ({
    worker: undefined,
    startedAt: 0,
    youngDeaths: 0,
    listened: false,
    restart: undefined,
  }));
  let starting = true;
  let stopping = false;
  let clean = true;
  let allExited: () => void = () => {};
  let startedOk: (baseUrl: string) => void = () => {};
  let startFailed: (error: Error) => void = () => {};
  const listening = new Promise<string>((resolve, reject) => {
    startedOk = resolve;
    startFailed = reject;
  });
  // Handled by the caller; never an unhandled rejection when it stops first.
  listening.catch(() => {});

  const fork = (slot: Slot) => {
    slot.restart = undefined;
    const worker = cluster.fork();
    slot.worker = worker;
    slot.startedAt = Date.now();
    logger.info("worker started", { worker_id: worker.id, worker_pid: worker.process.pid });
    worker.on("message", (message: unknown) => {
      if (!isWorkerListening(message)) return;
      slot.listened = true;
      if (starting && slots.every((each) => each.listened)) {
        starting = false;
        startedOk(message.baseUrl);
      }
    });
    // An IPC error (a worker that died mid-message) is reported by its exit; nothing to throw here.
    worker.on("error", (error) => logger.warn("worker channel error", { worker_id: worker.id, error: String(error) }));
  };

  cluster.on("exit", (worker, code, signal) => {
    const slot = slots.find((each) => each.worker === worker);
    if (!slot) return;
    slot.worker = undefined;
    // What the exit code reports is the drain: a worker that died earlier was replaced.
    if (stopping && code !== 0) clean = false;
    logger[stopping ? "info" : "error"]("worker exited", {
      worker_id: worker.id,
      worker_pid: worker.process.pid,
      code,
      signal,
    });
    if (stopping) {
      if (slots.every((each) => each.worker === undefined)) allExited();
      return;
    }
    if (starting) {
      // A worker that cannot start (port taken, database refused) would fail again: the start fails, as a single process's does.
      startFailed(new Error(`worker ${worker.id} exited (${signal ?? code}) before it listened`));
      return;
    }
    const { delayMs, youngDeaths } = nextRestart(slot.youngDeaths, Date.now() - slot.startedAt);
    slot.youngDeaths = youngDeaths;
    logger.warn("worker replaced", { worker_id: worker.id, in_ms: delayMs, young_deaths: youngDeaths });
    slot.restart = setTimeout(() => fork(slot), delayMs);
  });

  for (const slot of slots) fork(slot);

  return {
    listening,
    async stop(deadlineMs) {
      stopping = true;
      const running = slots.filter((slot) => slot.worker !== undefined);
      for (const slot of slots) clearTimeout(slot.restart);
      if (running.length === 0) return clean;
      const exited = new Promise<void>((resolve) => (allExited = resolve));
      // The signal itself, not worker.kill(): that disconnects the IPC channel first, and a worker whose channel closes exits at once, undrained.
      for (const slot of running) slot.worker?.process.kill("SIGTERM");
      const deadline = setTimeout(() => {
        for (const slot of slots) {
          if (!slot.worker) continue;
          logger.error("worker still draining at the deadline: killed", {
            worker_id: slot.worker.id,
            worker_pid: slot.worker.process.pid,
          });
          slot.worker.process.kill("SIGKILL");
        }
      }, deadlineMs);
      await exited;
      clearTimeout(deadline);
      return clean;
    },
  };
}
