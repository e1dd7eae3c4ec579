// The console's HTTP server: Next.js's own request handler behind a node:http server of ours,
// so that the address each request comes from is known. Next alone passes on whatever
// X-Forwarded-For a browser sends; here it is replaced by the connection's address (or, with
// TRUST_PROXY=true behind a reverse proxy, by the last entry that proxy added), and the
// console sends it on to the API, whose sign-in throttle counts attempts per address.
// Environment: PORT (default 3100), HOST (default 127.0.0.1), ADMIN_API_URL, TRUST_PROXY.
import { createServer } from "node:http";
import { isIP } from "node:net";
import next from "next";

const port = Number(process.env.PORT ?? 3100);
const hostname = process.env.HOST ?? "127.0.0.1";
const trustProxy = process.env.TRUST_PROXY === "true";

function visitorAddress(req) {
  const peer = req.socket.remoteAddress ?? "unknown";
  if (!trustProxy) return peer;
  const last = String(req.headers["x-forwarded-for"] ?? "").split(",").at(-1)?.trim() ?? "";
  return isIP(last) ? last : peer;
}

const app = next({ dev: false, dir: import.meta.dirname, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();
const server = createServer((req, res) => {
  req.headers["x-forwarded-for"] = visitorAddress(req);
  handle(req, res);
});
server.listen(port, hostname, () => process.stdout.write(`console listening on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${server.address().port}\n`));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
