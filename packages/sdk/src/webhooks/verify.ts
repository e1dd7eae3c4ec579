import { Webhook } from "standardwebhooks";

import { WebhookVerificationError } from "../errors/webhook-verification-error";
import type { WebhookEvent } from "../types";

/** Request headers as Node (`req.headers`), Fetch (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: Iterable<[string, string | string[] | undefined]> =
    typeof (headers as Headers).entries === "function" && headers instanceof Headers
      ? headers.entries()
      : Object.entries(headers);
  for (const [name, value] of entries) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[name.toLowerCase()] = first;
  }
  return out;
}

/**
 * Checks a webhook delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the endpoint's signing secret and returns its event, typed by `type`.
 * Pass the raw body exactly as received (not re-serialized JSON). Verification is the
 * `standardwebhooks` library's: any of the signatures may match (two during a secret roll), and a
 * timestamp more than 5 minutes from this machine's clock is refused (replays). Deduplicate on
 * the event's `id` (also `webhook-id`): a delivery may arrive more than once.
 */
export function verify(payload: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  let verified: unknown;
  try {
    verified = new Webhook(secret).verify(payload, headerRecord(headers));
  } catch (error) {
    throw new WebhookVerificationError(`webhook not verified: ${(error as Error).message}`, { cause: error });
  }
  return verified as WebhookEvent;
}

/** `webhooks.verify(payload, headers, secret)`. */
export const webhooks = { verify };
