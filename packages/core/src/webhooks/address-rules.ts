import ipaddr from "ipaddr.js";

/**
 * Which addresses a webhook may be sent to (docs/decisions.md, "Webhook SSRF rules"): only
 * global unicast. ipaddr.js classifies every special range (loopback, private, link-local, which
 * holds the cloud metadata address 169.254.169.254, carrier-grade NAT, unique-local fc00::/7,
 * multicast, reserved, documentation, 6to4/Teredo/NAT64 that embed another address, …) as
 * something other than `unicast`; an IPv4-mapped IPv6 address is judged as its IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "unicast";
}

/** The host of a URL as an address literal (brackets of IPv6 removed), or undefined for a name. */
export function addressLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}
