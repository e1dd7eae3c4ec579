import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

import type { ServerSecrets } from "../secrets/server-secrets";

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64 (what its libraries take as is). */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export const sealEndpointSecret = (secrets: ServerSecrets, secret: string) => secrets.seal("webhook-secret", secret);

export function openEndpointSecret(secrets: ServerSecrets, sealed: string): string {
  const secret = secrets.open("webhook-secret", sealed);
  if (secret === undefined) throw new Error("a webhook secret does not open with this SECRET_KEY");
  return secret;
}

/**
 * The `webhook-signature` header: one `v1,…` per secret in force, space-separated (during a roll,
 * the new secret's and the old one's), each computed by the `standardwebhooks` library itself.
 */
export function signatureHeader(secrets: string[], messageId: string, timestamp: Date, payload: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, payload)).join(" ");
}
