import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpChatUpstream } from "../../src/conversations/upstream/http-chat-upstream";

/**
 * The upstream client over real sockets: a completed answer's connection goes back to the
 * keep-alive agent (the next answer makes no new connection), and one whose response does not
 * end after `complete` neither holds the caller nor keeps its socket; an answer is read whole
 * whatever its chunks (a character cut in two, far more events than are read at once), and one
 * that stops before `complete` fails, as does one that stalls.
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
/** What the next responses send instead of ANSWER: chunks written one by one, a few milliseconds apart. */
let chunks: Array<string | Buffer> | undefined;
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
      if (chunks) {
        void writeApart(res, chunks);
      } else if (leaveOpen) {
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

async function writeApart(res: ServerResponse, parts: Array<string | Buffer>) {
  for (const part of parts) {
    res.write(part);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  res.end();
}

const question = {
  requestId: "req_1",
  conversationId: "conv_1",
  message: "q",
  history: [],
  sources: { agency_source_types: [], tenant_source_keys: [], shared_source_types: [] },
};

async function answer(upstream: HttpChatUpstream) {
  const events = [];
  for await (const event of upstream.stream(question)) events.push(event.type);
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

  it("reads a character whose bytes arrive in two chunks", async () => {
    const text = Buffer.from(frame({ type: "content", content: "prêt à taux zéro" }));
    const cut = text.indexOf(Buffer.from("ê")) + 1;
    chunks = [text.subarray(0, cut), text.subarray(cut), frame({ type: "complete", metadata: { tokens_used: 3 } })];
    try {
      const contents = [];
      for await (const event of new HttpChatUpstream({ url }).stream(question))
        if (event.type === "content") contents.push(event.content);
      expect(contents).toEqual(["prêt à taux zéro"]);
    } finally {
      chunks = undefined;
    }
  });

  it("an answer that arrives faster than it is read comes whole and in order", async () => {
    // Far more events in one chunk than the consumer takes at once: the response waits, paused, while it reads.
    const parts = Array.from({ length: 500 }, (_, i) => frame({ type: "content", content: `${i} ` }));
    chunks = [parts.join(""), frame({ type: "complete", metadata: { tokens_used: 500 } })];
    try {
      let text = "";
      for await (const event of new HttpChatUpstream({ url }).stream(question)) {
        if (event.type === "content") text += event.content;
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(text).toBe(Array.from({ length: 500 }, (_, i) => `${i} `).join(""));
    } finally {
      chunks = undefined;
    }
  });

  it("each chunk pushes the idle timeout back; a stream that then stalls times out", async () => {
    const IDLE_MS = 250;
    const CHUNKS = 24;
    // Chunks 25 ms apart for more than twice the idle timeout, then silence with the response open.
    const stalling = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      let sent = 0;
      const timer = setInterval(() => {
        res.write(frame({ type: "content", content: `${sent} ` }));
        sent += 1;
        if (sent === CHUNKS) clearInterval(timer);
      }, 25);
      res.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve));
    try {
      const stallUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
      const received: string[] = [];
      const reading = (async () => {
        for await (const event of new HttpChatUpstream({ url: stallUrl, idleTimeoutMs: IDLE_MS }).stream(question))
          if (event.type === "content") received.push(event.content);
      })();
      await expect(reading).rejects.toMatchObject({ reason: "timeout", message: "the upstream stream stalled" });
      expect(received).toHaveLength(CHUNKS);
    } finally {
      stalling.closeAllConnections();
      await new Promise((resolve) => stalling.close(resolve));
    }
  });

  it("a response cut short before `complete` fails the answer, and one that ends without it too", async () => {
    const content = frame({ type: "content", content: "3.5" });
    chunks = [content];
    try {
      await expect(answer(new HttpChatUpstream({ url }))).rejects.toMatchObject({ reason: "truncated" });
    } finally {
      chunks = undefined;
    }
    const cutting = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(content);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await new Promise<void>((resolve) => cutting.listen(0, "127.0.0.1", resolve));
    try {
      const cutUrl = `http://127.0.0.1:${(cutting.address() as AddressInfo).port}`;
      await expect(answer(new HttpChatUpstream({ url: cutUrl }))).rejects.toMatchObject({ reason: "unreachable" });
    } finally {
      cutting.closeAllConnections();
      await new Promise((resolve) => cutting.close(resolve));
    }
  });

  it("a request Node refuses to build (a token with a line break) fails the answer and sends nothing", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const before = connections;
      const upstream = new HttpChatUpstream({ url, token: "secret\r\nX-Injected: 1" });
      await expect(answer(upstream)).rejects.toMatchObject({ reason: "unreachable" });
      // The refused request's promise is the one the caller got: nothing is left to reject unheard.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      expect(connections).toBe(before);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
