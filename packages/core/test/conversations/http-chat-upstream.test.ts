import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpChatUpstream } from "../../src/conversations/upstream/http-chat-upstream";

/**
 * The upstream client over real sockets: a completed answer's connection goes back to the
 * keep-alive agent (the next answer makes no new connection), and one whose response does not
 * end after `complete` neither holds the caller nor keeps its socket.
 */
const frame = (event: object) => `data: ${JSON.stringify(event)}\n\n`;
const ANSWER =
  frame({ type: "content", content: "3.5 percent" }) + frame({ type: "complete", metadata: { tokens_used: 3 } });

let server: Server;
let url: string;
let connections = 0;
let closed = 0;
/** How the next response behaves after its answer: end it, or leave it open. */
let leaveOpen = false;
/** While true, a request that arrives on a connection used before is dropped with its connection (as by a proxy that closed it while idle). */
let dropReused = false;
const used = new WeakSet<object>();
const open: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (dropReused && used.has(req.socket)) {
      req.socket.destroy();
      return;
    }
    used.add(req.socket);
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      if (leaveOpen) {
        res.write(ANSWER);
        open.push(res);
      } else {
        res.end(ANSWER);
      }
    });
  });
  server.on("connection", (socket) => {
    connections += 1;
    socket.on("close", () => (closed += 1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function answer(upstream: HttpChatUpstream) {
  const events = [];
  for await (const event of upstream.stream({
    requestId: "req_1",
    conversationId: "conv_1",
    message: "q",
    history: [],
    sources: { agency_source_types: [], tenant_source_keys: [], shared_source_types: [] },
  }))
    events.push(event.type);
  return events;
}

describe("HTTP chat upstream", () => {
  it("reuses one connection for answers one after another", async () => {
    const upstream = new HttpChatUpstream({ url });
    const before = connections;
    for (let i = 0; i < 5; i += 1) {
      expect(await answer(upstream)).toEqual(["content", "complete"]);
      // The response's end (right behind `complete`) frees its socket a moment later.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(connections - before).toBe(1);
  });

  it("a request whose kept-alive connection was closed by the other side is sent again on a new one", async () => {
    const upstream = new HttpChatUpstream({ url });
    expect(await answer(upstream)).toEqual(["content", "complete"]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    dropReused = true;
    try {
      const before = connections;
      expect(await answer(upstream)).toEqual(["content", "complete"]);
      expect(connections - before).toBe(1);
    } finally {
      dropReused = false;
    }
  });

  it("a response left open after `complete` does not hold the caller, and its connection is closed soon after", async () => {
    const upstream = new HttpChatUpstream({ url });
    leaveOpen = true;
    try {
      const closedBefore = closed;
      const started = Date.now();
      expect(await answer(upstream)).toEqual(["content", "complete"]);
      expect(Date.now() - started).toBeLessThan(500);
      await expect.poll(() => closed - closedBefore, { timeout: 3_000 }).toBe(1);
    } finally {
      leaveOpen = false;
    }
  });
});
