import { setTimeout as sleep } from "node:timers/promises";

import { MgaError, nameErrorClass } from "./errors/mga-error";

/** How `waitFor` polls (defaults: every 500 ms, growing to 5 s, for at most 2 minutes). */
export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  maxIntervalMs?: number;
  signal?: AbortSignal;
}

/** `waitFor` ran out of time: the record is still not in a terminal status. */
export class WaitTimeoutError<T> extends MgaError {
  static {
    nameErrorClass(this, "WaitTimeoutError");
  }
  constructor(
    message: string,
    /** The record as last read. */
    readonly last: T,
  ) {
    super(message);
  }
}

/**
 * Reads a record until its status is terminal, waiting between reads (the interval grows by half
 * each time up to maxIntervalMs). Returns the terminal record, whichever status it ended in.
 */
export async function pollUntil<T extends { status: string }>(
  what: string,
  read: () => Promise<T>,
  terminal: readonly string[],
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 120_000, intervalMs = 500, maxIntervalMs = 5_000, signal } = options;
  const deadline = Date.now() + timeoutMs;
  let wait = intervalMs;
  for (;;) {
    const record = await read();
    if (terminal.includes(record.status)) return record;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(`${what} is still ${record.status} after ${timeoutMs} ms`, record);
    await sleep(Math.min(wait, left), undefined, { signal });
    wait = Math.min(maxIntervalMs, Math.round(wait * 1.5));
  }
}
