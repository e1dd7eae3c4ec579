import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/**
 * The address a request comes from, for the sign-in throttles. `X-Forwarded-For` is believed
 * only when the connection comes from a proxy we trust, and then only its last entry, the one
 * that proxy added (earlier entries are whatever the client sent). Trusted are the addresses
 * and networks listed in TRUST_PROXY and, on the admin listener, loopback (the console on this
 * machine, which forwards the address of the browser it serves).
 */
export type IsTrustedProxy = (peer: string) => boolean;

/** `TRUST_PROXY`: a comma-separated list of addresses and CIDR networks (`10.0.0.0/8, ::1`); empty trusts none. */
export function trustedProxies(list: string): IsTrustedProxy {
  const proxies = new BlockList();
  for (const entry of list
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (!isIP(address)) throw new Error(`TRUST_PROXY: ${entry} is not an address or a CIDR network`);
    if (prefix === undefined) proxies.addAddress(address, family);
    else proxies.addSubnet(address, Number(prefix), family);
  }
  return (peer) => {
    const address = peer.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    return isIP(address) !== 0 && proxies.check(address, family);
  };
}

export const loopback: IsTrustedProxy = (peer) => peer === "::1" || peer.startsWith("127.") || peer.startsWith("::ffff:127.");

export function clientAddressOf(req: IncomingMessage, trusted: IsTrustedProxy): string {
  const peer = req.socket.remoteAddress ?? "unknown";
  if (!trusted(peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  const last = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").at(-1)?.trim() ?? "";
  return isIP(last) ? last : peer;
}
