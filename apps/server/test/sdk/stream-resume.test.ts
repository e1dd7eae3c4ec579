import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpChatUpstream } from "@mga/core/conversations";
import { ApiError, Client, type RetryEvent, type StreamEvent } from "@mga/sdk";

import { startFailoverProxy } from "../support/failover-proxy";
import { startPacedUpstream, startServerProcess } from "../support/server-process";
import { ACME_TENANT } from "../support/tenants";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * The SDK's streams across a deploy (issue 23, its clients' part), with nothing a stand-in: the
 * built server in a process of its own and an in-process instance on one PostgreSQL, both asking
 * a real paced upstream, behind a proxy that sends each request to the child and, once the child
 * refuses connections, to the other instance, as a load balancer does. The caller only loops.
 */
const FRAGMENTS = 40;
let upstream: Awaited<ReturnType<typeof startPacedUpstream>>;
let app: TestApp;
beforeAll(async () => {
  upstream = await startPacedUpstream({ fragments: FRAGMENTS, gapMs: 50 });
  app = await startTestApp({
    upstream: new HttpChatUpstream({ url: upstream.url, idleTimeoutMs: 5_000 }),
    answerStreams: { sweepMs: 500 },
  });
});
afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

const user = { external_user_id: "lo-1" };
const isTerminal = (frame: StreamEvent) => frame.type === "public_api_complete" || frame.type === "error";
const storedAnswer = async (conversationId: string | undefined) =>
  (
    await app.t.db.sql.query(
      "SELECT status, content, metadata FROM messages WHERE conversation_id = $1 AND role = 'assistant'",
      [conversationId],
    )
  ).rows;

describe("an SDK stream across a deploy", () => {
  it("the instance answering gets SIGTERM mid-answer: the loop receives the whole answer, every fragment once, one terminal frame", async () => {
    const server = await startServerProcess({
      databaseUrl: app.t.url,
      upstreamUrl: upstream.url,
      env: { SHUTDOWN_DRAIN_MS: "300" },
    });
    const proxy = await startFailoverProxy(server.baseUrl, app.baseUrl);
    try {
      const { key } = await app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read", "chat:write"] });
      const resumes: RetryEvent[] = [];
      const client = new Client({ apiKey: key, baseUrl: proxy.url, onRetry: (event) => resumes.push(event) });
      const stream = await client.messages.stream({ message: "Tell me in parts", user });
      const frames: StreamEvent[] = [];
      for await (const frame of stream) {
        frames.push(frame);
        if (frames.length === 5) server.child.kill("SIGTERM");
      }

      const fragments = frames.flatMap((frame) => (frame.type === "content" ? [frame.content] : []));
      expect(fragments).toEqual(Array.from({ length: FRAGMENTS }, (_, i) => `part ${i}. `));
      expect(frames.filter(isTerminal)).toEqual([frames.at(-1)]);
      expect(frames.at(-1)?.type).toBe("public_api_complete");
      expect((await stream.finalAnswer()).text).toBe(upstream.text);
      // Told to resume by the draining child, the stream resumed once, on the other instance.
      expect(resumes).toEqual([
        expect.objectContaining({
          attempt: 1,
          method: "GET",
          url: `${proxy.url}/v1/conversations/${stream.conversationId}/stream`,
          lastEventId: expect.any(String),
        }),
      ]);
      expect(proxy.answeredBy).toEqual([server.baseUrl, app.baseUrl]);
      expect(await server.exited).toBe(0);
      expect(await storedAnswer(stream.conversationId)).toEqual([
        {
          status: "complete",
          content: upstream.text,
          metadata: expect.objectContaining({ client_disconnected: true }),
        },
      ]);
    } finally {
      await proxy.close();
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
    }
  }, 60_000);
});

describe("an SDK stream cancelled", () => {
  it("cancel() stops the upstream call and the answer is stored incomplete; a resume ends with the 409 error frame", async () => {
    const { key } = await app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read", "chat:write"] });
    const client = new Client({ apiKey: key, baseUrl: app.baseUrl });
    const stream = await client.messages.stream({ message: "Tell me in parts", user });
    let openWhenCancelled = 0;
    const fragments: string[] = [];
    for await (const fragment of stream.text()) {
      fragments.push(fragment);
      if (fragments.length === 3) {
        openWhenCancelled = upstream.open;
        await stream.cancel();
      }
    }
    expect(fragments).toHaveLength(3);
    expect(openWhenCancelled).toBe(1);
    const cancelledAt = Date.now();
    while (upstream.open > 0 && Date.now() - cancelledAt < 5_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(upstream.open).toBe(0);
    // Well before the paced answer's own end (40 × 50 ms): the cancel stopped it.
    expect(Date.now() - cancelledAt).toBeLessThan(1_500);
    await expect(stream.finalAnswer()).rejects.toThrow(/cancelled/);

    const resumed = await client.conversations.resume(stream.conversationId as string, {
      lastEventId: stream.lastEventId,
    });
    const error = await resumed.finalAnswer().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: "invalid_request" });
    const [stored] = await storedAnswer(stream.conversationId);
    expect(stored).toMatchObject({
      status: "incomplete",
      metadata: expect.objectContaining({ error_code: "cancelled" }),
    });
    expect(upstream.text.startsWith(stored.content)).toBe(true);
    expect(stored.content.length).toBeLessThan(upstream.text.length);
    expect(await client.conversations.cancel(stream.conversationId as string)).toMatchObject({ status: "cancelled" });
  }, 30_000);
});
