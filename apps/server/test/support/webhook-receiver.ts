import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered (null: it never answered). */
  answered: number | null;
  at: number;
}

/** What the receiver does with the next request: answer a status (after a delay), or never answer. */
export type Reply = number | "hang" | { status: number; delayMs: number };

/**
 * A real partner endpoint on 127.0.0.1: records every request (headers and raw body) and answers
 * from `replies` in order (then `otherwise`, 200 by default).
 */
export async function startReceiver(options: { replies?: Reply[]; otherwise?: Reply } = {}) {
  const replies = [...(options.replies ?? [])];
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<() => void>();
  const state = { otherwise: options.otherwise ?? (200 as Reply) };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const entry: ReceivedWebhook = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        answered: null,
        at: Date.now(),
      };
      received.push(entry);
      const reply = replies.shift() ?? state.otherwise;
      if (reply === "hang") {
        const release = () => res.destroy();
        hanging.add(release);
        res.on("close", () => hanging.delete(release));
        return;
      }
      const { status, delayMs } = typeof reply === "number" ? { status: reply, delayMs: 0 } : reply;
      setTimeout(() => {
        entry.answered = status;
        res.writeHead(status, { "Content-Type": "text/plain" }).end(status < 300 ? "ok" : "nope");
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    /** The requests answered with a 2xx, in the order they were answered. */
    delivered: () => received.filter((entry) => entry.answered !== null && entry.answered < 300),
    setOtherwise(reply: Reply) {
      state.otherwise = reply;
    },
    async close() {
      for (const release of hanging) release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
