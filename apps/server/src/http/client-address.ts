import { createHmac } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

import { sameSecret } from "@mga/core/ids";

/**
 * The address a request comes from, for the sign-in throttles. `X-Forwarded-For` is believed
 * only when the connection comes from a proxy listed in TRUST_PROXY, and then only its last
 * entry, the one that proxy added (earlier entries are whatever the client sent). The admin
 * listener also believes the console's signed `X-Console-Forwarded-For`, from any peer: a
 * loopback peer alone proves nothing, since every process on the machine is one.
 */
export type IsTrustedProxy = (peer: string) => boolean;

/** `TRUST_PROXY`: a comma-separated list of addresses and CIDR networks (`10.0.0.0/8, ::1`); empty trusts none. */
export function trustedProxies(list: string): IsTrustedProxy {
  const proxies = new BlockList();
  const entries = list
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (!isIP(address)) throw new Error(`TRUST_PROXY: ${entry} is not an address or a CIDR network`);
    if (prefix === undefined) proxies.addAddress(address, family);
    else proxies.addSubnet(address, Number(prefix), family);
  }
  // None listed (the default): every request would otherwise parse its peer's address for nothing.
  if (entries.length === 0) return () => false;
  return (peer) => {
    const address = peer.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
    const version = isIP(address);
    return version !== 0 && proxies.check(address, version === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * The console's proof of its visitor's address: `<address>;<unix seconds>;<MAC>`, the MAC an
 * HMAC-SHA256 (base64url) of `<address>;<unix seconds>` with SECRET_KEY's `console-forwarding`
 * key (apps/admin/src/lib/visitor-signature.ts makes it). It is believed 30 s either side of its
 * time: a captured header soon stops working, and the clocks of two hosts may differ a little.
 */
const CONSOLE_FORWARDED_FOR = "x-console-forwarded-for";
const CONSOLE_SIGNATURE_SECONDS = 30;

/** The address the console signed, or undefined for anything else (absent, malformed, tampered with, too old, another key). */
export function consoleVisitorOf(
  header: string | string[] | undefined,
  key: Buffer,
  now = Date.now(),
): string | undefined {
  const parts = typeof header === "string" ? header.split(";") : [];
  if (parts.length !== 3) return undefined;
  const [address = "", seconds = "", mac = ""] = parts;
  if (
    !isIP(address) ||
    !/^\d{1,12}$/.test(seconds) ||
    Math.abs(now / 1000 - Number(seconds)) > CONSOLE_SIGNATURE_SECONDS
  )
    return undefined;
  const expected = createHmac("sha256", key).update(`${address};${seconds}`).digest("base64url");
  return sameSecret(mac, expected) ? address : undefined;
}

/** `consoleKey`: on the admin listener, the key that makes a console-signed address believable. */
export function clientAddressOf(req: IncomingMessage, trusted: IsTrustedProxy, consoleKey?: Buffer): string {
  const signed = consoleKey && consoleVisitorOf(req.headers[CONSOLE_FORWARDED_FOR], consoleKey);
  if (signed) return signed;
  const peer = req.socket.remoteAddress ?? "unknown";
  if (!trusted(peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  const last = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").at(-1)?.trim() ?? "";
  return isIP(last) ? last : peer;
}
