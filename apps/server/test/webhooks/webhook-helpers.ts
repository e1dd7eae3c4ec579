import { createHmac } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";

import { createWebhookEndpoint, type EventType } from "@mga/core/webhooks";

import type { TestApp } from "../support/test-app";

/**
 * The Standard Webhooks signature scheme as its specification states it, written out here
 * independently of the service: HMAC-SHA256 over `{id}.{timestamp}.{body}` with the secret's
 * base64 part as key, base64, `v1,` prefix; several space-separated signatures, any one matching.
 */
export function signedPerSpecification(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`)
    .digest("base64");
  return String(headers["webhook-signature"]).split(" ").includes(`v1,${expected}`);
}

/** The reference library's verification (what partners run); throws when the signature does not match. */
export function verifiedByLibrary(secret: string, headers: IncomingHttpHeaders, body: string): unknown {
  return new Webhook(secret).verify(body, headers as Record<string, string>);
}

export async function endpointFor(
  app: TestApp,
  organizationId: string,
  url: string,
  eventTypes: EventType[],
  integration?: string,
) {
  return createWebhookEndpoint(app.t.db, {
    organizationId,
    url,
    eventTypes,
    integration: integration ?? null,
    allowPrivateAddresses: true,
  });
}

export const USER_EVENTS: EventType[] = [
  "user.disabled",
  "user.reactivated",
  "user.deleted",
  "user.provisioning_failed",
  "user.launch_eligibility_changed",
];
