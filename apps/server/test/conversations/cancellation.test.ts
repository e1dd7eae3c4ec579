import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpChatUpstream } from "@mga/core/conversations";

import { ACME_TENANT } from "../support/tenants";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * Cancellation and timeouts over real sockets (no msw in this file: its interceptor trips
 * an undici assertion when a mocked stream is aborted). A real upstream server starts an
 * answer and then stalls; only a disconnect or a timeout ends the request.
 */
let upstream: Server;
let app: TestApp;
let upstreamUrl: string;
const upstreamClosed: boolean[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const index = upstreamClosed.push(false) - 1;
    res.on("close", () => {
      upstreamClosed[index] = true;
    });
    req.resume();
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write(`data: ${JSON.stringify({ type: "content", content: "thinking" })}\n\n`);
    // …and never finishes: only a cancellation ends this request.
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  app = await startTestApp({ upstream: new HttpChatUpstream({ url: upstreamUrl, idleTimeoutMs: 30_000 }) });
});
afterAll(async () => {
  upstream.closeAllConnections();
  upstream.close();
  await app.close();
});

function startRequest(body: object, key: string) {
  const req = request(`${app.baseUrl}/v1/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
  });
  req.on("error", () => {});
  req.end(JSON.stringify(body));
  return req;
}

describe("a partner that disconnects", () => {
  it("does not stop a streamed answer: it goes on until cancelled, which stops the upstream and keeps the partial answer", async () => {
    const { key } = await app.newKey({ tenant: ACME_TENANT });
    const before = upstreamClosed.length;
    const req = startRequest({ stream: true, message: "hi", user: { external_user_id: "u" } }, key);
    const res = await new Promise<IncomingMessage>((resolve) => req.on("response", resolve));
    const first = await new Promise<string>((resolve) =>
      res.once("data", (chunk: Buffer) => resolve(chunk.toString())),
    );
    const conversationId = /"conversation_id":"([^"]+)"/.exec(first)?.[1] as string;
    req.destroy();
    // The answer's generation does not depend on its client: the upstream call stays open.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(upstreamClosed[before]).toBe(false);
    expect(
      (
        await app.t.db.sql.query(
          "SELECT count(*)::int AS n FROM messages WHERE role = 'assistant' AND conversation_id = $1",
          [conversationId],
        )
      ).rows[0].n,
    ).toBe(0);
    // An explicit cancel stops it.
    const cancel = await app.request(`/v1/conversations/${conversationId}/cancel`, { method: "POST", key });
    expect(cancel.status, cancel.text).toBe(202);
    expect(cancel.body).toMatchObject({
      conversation_id: conversationId,
      status: "generating",
      message_id: expect.stringMatching(/^msg_/),
    });
    await expect.poll(() => upstreamClosed[before], { timeout: 3_000 }).toBe(true);
    await expect
      .poll(
        async () =>
          (
            await app.t.db.sql.query(
              "SELECT id, status, content, metadata FROM messages WHERE role = 'assistant' AND conversation_id = $1",
              [conversationId],
            )
          ).rows,
        { timeout: 3_000 },
      )
      .toEqual([
        {
          id: cancel.body.message_id,
          status: "incomplete",
          content: "thinking",
          metadata: expect.objectContaining({ error_code: "cancelled", client_disconnected: true }),
        },
      ]);
    // Cancelling again finds the answer ended: 200 with how it ended.
    await expect
      .poll(
        async () =>
          (await app.request(`/v1/conversations/${conversationId}/cancel`, { method: "POST", key })).body.status,
        { timeout: 3_000 },
      )
      .toBe("cancelled");
  });

  it("a stalled upstream times out: 502 upstream_error, the upstream request closed, nothing stored", async () => {
    const impatient = await startTestApp({
      upstream: new HttpChatUpstream({ url: upstreamUrl, idleTimeoutMs: 300 }),
      shareDatabaseWith: app,
    });
    try {
      const before = upstreamClosed.length;
      const { key, id } = await impatient.newKey({ tenant: ACME_TENANT });
      const res = await impatient.request("/v1/messages", {
        method: "POST",
        key,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message: "hi", user: { external_user_id: "u" } }),
      });
      expect(res.status).toBe(502);
      expect(res.body.error).toMatchObject({ code: "upstream_error", message: "the assistant did not answer in time" });
      await expect.poll(() => upstreamClosed[before], { timeout: 3_000 }).toBe(true);
      const stored = await app.t.db.sql.query("SELECT count(*)::int AS n FROM conversations WHERE api_key_id = $1", [
        id,
      ]);
      expect(stored.rows[0].n).toBe(0);
    } finally {
      await impatient.close();
    }
  });

  it("cancels the upstream call of a JSON answer and stores nothing", async () => {
    const { key, id } = await app.newKey({ tenant: ACME_TENANT });
    const before = upstreamClosed.length;
    const req = startRequest({ message: "hi", user: { external_user_id: "u" } }, key);
    await expect.poll(() => upstreamClosed.length, { timeout: 3_000 }).toBe(before + 1);
    req.destroy();
    await expect.poll(() => upstreamClosed[before], { timeout: 3_000 }).toBe(true);
    const stored = await app.t.db.sql.query("SELECT count(*)::int AS n FROM conversations WHERE api_key_id = $1", [id]);
    expect(stored.rows[0].n).toBe(0);
  });
});
