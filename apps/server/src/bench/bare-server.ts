import { createServer } from "node:http";

/**
 * The bench's reference: a bare node:http handler answering a small JSON body, in a process
 * of its own like the service (PORT and HOST from the bench), so its RSS is comparable too.
 */
const body = JSON.stringify({ request_id: "req_bench", ok: true });
createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }).end(body);
}).listen(Number(process.env.PORT), process.env.HOST);
process.on("SIGTERM", () => process.exit(0));
