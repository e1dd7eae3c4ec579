import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { http, HttpResponse, passthrough } from "msw";
import { describe, expect, it } from "vitest";

import { ApiError, Client, type StreamEvent } from "../src/index";
import { BASE, envelope, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();
const user = { external_user_id: "lo-1" };

const FRAMES: StreamEvent[] = [
  { type: "public_api_conversation", request_id: "req_s", conversation_id: "conv_1", conversation_created: true },
  { type: "content", content: "FHA needs 3.5 % down — " },
  { type: "content", content: "with a 580 score. ✓" },
  { type: "content_postprocessed", content: "FHA needs 3.5 % down — with a 580 score. ✓ [1]" },
  {
    type: "complete",
    metadata: { tokens_used: 42 },
    citations: [{ id: "fha-1", title: "FHA down payment" }],
    sources: [{ source_type: "fha", label: "FHA" }],
  },
  { type: "public_api_complete", request_id: "req_s", conversation_id: "conv_1", message_id: "msg_9" },
];

const sse = (frames: object[]) => frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join("");

/** The bytes of `text` cut every `size` bytes: frames, lines and multi-byte characters split across chunks. */
function chunked(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

function streamAnswer(body: () => ReadableStream<Uint8Array> | string) {
  server.use(
    http.post(
      `${BASE}/v1/messages`,
      () => new HttpResponse(body(), { headers: { "Content-Type": "text/event-stream" } }),
    ),
  );
}

describe("messages.stream", () => {
  it("yields the typed frames in order however the bytes are chunked, skipping keep-alive comments", async () => {
    const text = `: keep-alive\n\n${sse(FRAMES.slice(0, 3))}: keep-alive\n\n${sse(FRAMES.slice(3))}`;
    for (const size of [1, 3, 7, 64]) {
      streamAnswer(() => chunked(text, size));
      const frames: StreamEvent[] = [];
      for await (const frame of await testClient().messages.stream({ message: "FHA down payment?", user }))
        frames.push(frame);
      expect(frames).toEqual(FRAMES);
    }
  });

  it("sends stream: true and never an Idempotency-Key", async () => {
    streamAnswer(() => sse(FRAMES));
    await (await testClient().messages.stream({ message: "hi", user })).finalAnswer();
    expect(requests[0]!.headers.has("idempotency-key")).toBe(false);
    expect(await requests[0]!.json()).toEqual({ message: "hi", user, stream: true });
  });

  it("finalAnswer gives the post-processed text, citations, sources, tokens and the stored message id", async () => {
    streamAnswer(() => chunked(sse(FRAMES), 5));
    const answer = await (await testClient().messages.stream({ message: "hi", user })).finalAnswer();
    expect(answer).toEqual({
      text: "FHA needs 3.5 % down — with a 580 score. ✓ [1]",
      citations: [{ id: "fha-1", title: "FHA down payment" }],
      sources: [{ source_type: "fha", label: "FHA" }],
      tokensUsed: 42,
      messageId: "msg_9",
      conversationId: "conv_1",
      conversationCreated: true,
      requestId: "req_s",
    });
  });

  it("finalAnswer joins the fragments when no post-processed text came, after a partly iterated stream", async () => {
    const frames = FRAMES.filter((frame) => frame.type !== "content_postprocessed");
    streamAnswer(() => sse(frames));
    const stream = await testClient().messages.stream({ message: "hi", user });
    for await (const frame of stream) if (frame.type === "public_api_complete") break;
    expect((await stream.finalAnswer()).text).toBe("FHA needs 3.5 % down — with a 580 score. ✓");
  });

  it("raises the terminal error frame as an ApiError, after the frames before it", async () => {
    streamAnswer(() =>
      sse([
        FRAMES[1]!,
        {
          type: "error",
          status: 502,
          error: { code: "upstream_error", message: "The assistant stopped answering", request_id: "req_e" },
        },
      ]),
    );
    const seen: string[] = [];
    const reading = (async () => {
      for await (const frame of await testClient().messages.stream({ message: "hi", user })) seen.push(frame.type);
    })();
    const error = await reading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      code: "upstream_error",
      message: "The assistant stopped answering",
      requestId: "req_e",
    });
    expect(seen).toEqual(["content"]);
  });

  it("throws a refusal before the first frame (the JSON envelope) when the stream is opened", async () => {
    server.use(
      http.post(`${BASE}/v1/conversations/c1/messages`, () =>
        HttpResponse.json(envelope("not_found", "No such conversation", "req_nf"), { status: 404 }),
      ),
    );
    await expect(testClient().conversations.messages.stream("c1", { message: "hi", user })).rejects.toMatchObject({
      status: 404,
      code: "not_found",
      requestId: "req_nf",
    });
  });

  it("finalAnswer of a stream that ends before public_api_complete is an ApiError", async () => {
    streamAnswer(() => sse(FRAMES.slice(0, 3)));
    await expect((await testClient().messages.stream({ message: "hi", user })).finalAnswer()).rejects.toMatchObject({
      code: "upstream_error",
    });
  });

  it("text() yields the content fragments only; finalAnswer() still gives the whole answer after it", async () => {
    streamAnswer(() => chunked(sse(FRAMES), 5));
    const stream = await testClient().messages.stream({ message: "hi", user });
    const texts: string[] = [];
    for await (const text of stream.text()) texts.push(text);
    expect(texts).toEqual(["FHA needs 3.5 % down — ", "with a 580 score. ✓"]);
    expect(await stream.finalAnswer()).toMatchObject({
      text: "FHA needs 3.5 % down — with a 580 score. ✓ [1]",
      messageId: "msg_9",
      tokensUsed: 42,
    });
  });

  it("text() throws the terminal error frame as an ApiError too", async () => {
    streamAnswer(() =>
      sse([
        FRAMES[1]!,
        { type: "error", status: 503, error: { code: "upstream_error", message: "gone", request_id: "req_e" } },
      ]),
    );
    const stream = await testClient().messages.stream({ message: "hi", user });
    const reading = (async () => {
      for await (const text of stream.text()) void text;
    })();
    await expect(reading).rejects.toMatchObject({ status: 503, code: "upstream_error", requestId: "req_e" });
  });

  it("leaving the loop early aborts the request: the server sees the connection close", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const real = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(sse([FRAMES[1]!]));
      // Never ends by itself: only the client's abort closes it.
      res.on("close", () => closed());
    });
    await new Promise<void>((resolve) => real.listen(0, "127.0.0.1", resolve));
    try {
      server.use(http.all("*", () => passthrough()));
      const client = new Client({
        apiKey: "mga_test_key",
        baseUrl: `http://127.0.0.1:${(real.address() as AddressInfo).port}`,
      });
      const frames: StreamEvent[] = [];
      for await (const frame of await client.messages.stream({ message: "hi", user })) {
        frames.push(frame);
        break;
      }
      expect(frames).toEqual([FRAMES[1]]);
      await expect(
        Promise.race([
          connectionClosed.then(() => "closed"),
          new Promise((r) => setTimeout(() => r("still open"), 5_000)),
        ]),
      ).resolves.toBe("closed");
    } finally {
      real.closeAllConnections();
      await new Promise((resolve) => real.close(resolve));
    }
  });

  it("cancel() stops the request (the server sees the connection close) and ends the loop without an error", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const real = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(sse([FRAMES[1]!]));
      res.on("close", () => closed());
    });
    await new Promise<void>((resolve) => real.listen(0, "127.0.0.1", resolve));
    try {
      server.use(http.all("*", () => passthrough()));
      const client = new Client({
        apiKey: "mga_test_key",
        baseUrl: `http://127.0.0.1:${(real.address() as AddressInfo).port}`,
      });
      const stream = await client.messages.stream({ message: "hi", user });
      const texts: string[] = [];
      for await (const text of stream.text()) {
        texts.push(text);
        stream.cancel();
      }
      expect(texts).toEqual(["FHA needs 3.5 % down — "]);
      await expect(
        Promise.race([
          connectionClosed.then(() => "closed"),
          new Promise((r) => setTimeout(() => r("still open"), 5_000)),
        ]),
      ).resolves.toBe("closed");
      await expect(stream.finalAnswer()).rejects.toThrow(/cancelled/);
    } finally {
      real.closeAllConnections();
      await new Promise((resolve) => real.close(resolve));
    }
  });
});
