import { createHmac } from "node:crypto";

/**
 * The header with which the console vouches for its visitor's address to the API's admin
 * listener, which believes it only with a valid signature (a forged X-Forwarded-For from any
 * process on the machine counts as that process's own address there).
 */
export const VISITOR_HEADER = "X-Console-Forwarded-For";

/**
 * `<address>;<unix seconds>;<MAC>`: HMAC-SHA256 (base64url) of `<address>;<unix seconds>` with
 * ADMIN_FORWARDING_KEY (base64url). The API's side is consoleVisitorOf in
 * apps/server/src/http/client-address.ts, which believes it for 30 s; test/visitor-signature.test.ts
 * signs here and verifies there.
 */
export function signVisitor(address: string, key: string, now = Date.now()): string {
  const signed = `${address};${Math.floor(now / 1000)}`;
  return `${signed};${createHmac("sha256", Buffer.from(key, "base64url")).update(signed).digest("base64url")}`;
}
