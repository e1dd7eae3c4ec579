import type { StoredEvent } from "./list-events";

/** Retry delays after each failed attempt (docs/decisions.md, "Webhook retries"): about 24 h in all. */
export const RETRY_DELAYS_MS = [5, 30, 120, 300, 900, 1800, 3600, 7200, 14_400, 28_800, 28_800].map((s) => s * 1000);
/** An endpoint whose deliveries have failed for this long, with no success between, is disabled. */
export const DISABLE_AFTER_MS = 24 * 3600_000;

export interface WebhookOptions {
  /** The event's public form, the body every endpoint receives (the API's renderer: its zod schemas sanitize it). */
  renderEvent: (event: StoredEvent) => object;
  /** Local development and tests only (WEBHOOK_ALLOW_PRIVATE_ADDRESSES). */
  allowPrivateAddresses: boolean;
  /** Tests shorten these. */
  retryDelaysMs?: number[];
  disableAfterMs?: number;
  /** How often the fan-out looks for new events (ms). */
  dispatchIntervalMs?: number;
  /** How long one attempt holds its delivery against other instances. */
  leaseMs?: number;
  /** The whole attempt's time limit. */
  timeoutMs?: number;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

/** ±20% around the delay, so the retries of many deliveries failed together do not come back together. */
export function withJitter(delayMs: number, random: () => number = Math.random): number {
  return Math.round(delayMs * (0.8 + 0.4 * random()));
}
