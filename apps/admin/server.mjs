// The console's HTTP server: Next.js's own request handler behind a node:http server of ours,
// so that the address each request comes from is known. Next alone passes on whatever
// X-Forwarded-For a browser sends; here it is replaced by the connection's address (or, with
// a request from a reverse proxy listed in TRUST_PROXY, by the last entry that proxy added),
// and the console sends it on, signed with ADMIN_FORWARDING_KEY (src/lib/trpc.ts), to the API,
// whose sign-in throttle counts attempts per address.
// Environment: PORT (default 3100), HOST (default 127.0.0.1), ADMIN_API_URL, TRUST_PROXY (the
// API's setting: comma-separated addresses or CIDR networks; the API checks its syntax).
import { createServer } from "node:http";
import { BlockList, isIP } from "node:net";
import next from "next";

const port = Number(process.env.PORT ?? 3100);
const hostname = process.env.HOST ?? "127.0.0.1";
const proxies = new BlockList();
for (const entry of (process.env.TRUST_PROXY ?? "")
  .split(",")
  .map((item) => item.trim())
  .filter(Boolean)) {
  const [address, prefix] = entry.split("/");
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  if (prefix === undefined) proxies.addAddress(address, family);
  else proxies.addSubnet(address, Number(prefix), family);
}

function visitorAddress(req) {
  const peer = req.socket.remoteAddress ?? "unknown";
  const plain = peer.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  if (!isIP(plain) || !proxies.check(plain, isIP(plain) === 6 ? "ipv6" : "ipv4")) return peer;
  const last =
    String(req.headers["x-forwarded-for"] ?? "")
      .split(",")
      .at(-1)
      ?.trim() ?? "";
  return isIP(last) ? last : peer;
}

const app = next({ dev: false, dir: import.meta.dirname, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();
const server = createServer((req, res) => {
  req.headers["x-forwarded-for"] = visitorAddress(req);
  handle(req, res);
});
server.listen(port, hostname, () =>
  process.stdout.write(
    `console listening on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${server.address().port}\n`,
  ),
);
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
