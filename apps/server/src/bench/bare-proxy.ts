import { Agent, createServer, request } from "node:http";

import { LISTEN_BACKLOG } from "../http/listen-backlog";

/**
 * The bench's reference for its bursts of streams: the least a node:http server does to relay
 * an answer stream. It reads the request's body, posts it to the upstream stand-in over a
 * keep-alive agent (as the service's upstream client does), pipes the upstream's bytes back
 * unchanged and ends with the one terminal frame the bench counts. No key, no database, no
 * frames of its own. A burst's first frames and memory per open stream, measured on it in the
 * same run, are what Node's HTTP server and client cost on this machine before any code of ours
 * (README, "Benchmark"). In a process of its own like the service (PORT, HOST and
 * UPSTREAM_CHAT_URL from the bench), started with the service's V8 flags and listen backlog.
 */
const upstream = `${process.env.UPSTREAM_CHAT_URL}/v1/chat/stream`;
const agent = new Agent({ keepAlive: true });
const TERMINAL = `data: ${JSON.stringify({ type: "public_api_complete" })}\n\n`;

createServer((req, res) => {
  // GET / only tells the bench that the process listens.
  if (req.method !== "POST") return void res.end();
  const body: Buffer[] = [];
  req.on("data", (chunk: Buffer) => body.push(chunk));
  req.on("end", () => {
    let ended = false;
    const relay = request(
      upstream,
      { method: "POST", agent, headers: { "Content-Type": "application/json" } },
      (answer) => {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        answer.on("data", (chunk: Buffer) => res.write(chunk));
        answer.on("end", () => {
          ended = true;
          res.end(TERMINAL);
        });
      },
    );
    relay.on("error", () => res.destroy());
    // A client that leaves ends its upstream call, as in the service.
    res.on("close", () => ended || relay.destroy());
    relay.end(Buffer.concat(body));
  });
}).listen(Number(process.env.PORT), process.env.HOST, LISTEN_BACKLOG);
process.on("SIGTERM", () => process.exit(0));
