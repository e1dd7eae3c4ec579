import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/**
 * The address a request comes from, for the sign-in throttles. `X-Forwarded-For` is believed
 * only from a proxy we trust: its last entry is the one that proxy saw (earlier entries are
 * whatever the client sent). Trusted are a reverse proxy in front of the API when TRUST_PROXY
 * is set, and, on the admin listener, the console on this machine (a loopback peer), which
 * forwards the address of the browser it serves.
 */
export type ForwardedTrust = "never" | "always" | "loopback";

export function clientAddressOf(req: IncomingMessage, trust: ForwardedTrust): string {
  const peer = req.socket.remoteAddress ?? "unknown";
  const trusted = trust === "always" || (trust === "loopback" && isLoopback(peer));
  if (!trusted) return peer;
  const header = req.headers["x-forwarded-for"];
  const last = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").at(-1)?.trim() ?? "";
  return isIP(last) ? last : peer;
}

function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}
