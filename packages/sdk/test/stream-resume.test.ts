import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { http, HttpResponse, passthrough } from "msw";
import { afterEach, describe, expect, it } from "vitest";

import {
  ApiConnectionError,
  ApiError,
  Client,
  StreamResumeError,
  type RetryEvent,
  type StreamEvent,
} from "../src/index";
import {
  cancelAnswers,
  eventStream,
  FRAME_IDS,
  FRAMES,
  framesText,
  openBody,
  positionAfter,
  postAnswers,
  RECONNECT,
  resumeServes,
  TEXT,
} from "./support/framed-answer";
import { BASE, envelope, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();
const user = { external_user_id: "lo-1" };
const resumeUrl = `${BASE}/v1/conversations/conv_1/stream`;

/** Every frame a loop over the stream got, and what it threw (undefined when it ended quietly). */
async function readAll(stream: AsyncIterable<StreamEvent>) {
  const frames: StreamEvent[] = [];
  try {
    for await (const frame of stream) frames.push(frame);
    return { frames, error: undefined };
  } catch (error) {
    return { frames, error };
  }
}

const sent = (method: string, url: string) =>
  requests.filter((request) => request.method === method && request.url === url);

/** A real loopback server (msw lets its requests through): only a socket can be reset midway. */
let real: Server | undefined;
async function realServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  real = createServer(handler);
  await new Promise<void>((resolve) => real!.listen(0, "127.0.0.1", resolve));
  server.use(http.all("*", () => passthrough()));
  return `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
}
afterEach(async () => {
  real?.closeAllConnections();
  await new Promise((resolve) => (real ? real.close(resolve) : resolve(undefined)));
  real = undefined;
});

describe("a stream resumes by itself", () => {
  it("after a connection reset midway: GET …/stream with the last frame's id, and every frame arrives once, in order", async () => {
    const lastEventIds: Array<string | undefined> = [];
    const baseUrl = await realServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      if (req.method === "POST") {
        res.write(framesText(0, 3), () => setTimeout(() => res.destroy(), 20));
        return;
      }
      const lastEventId = req.headers["last-event-id"] as string | undefined;
      lastEventIds.push(lastEventId);
      res.end(framesText(positionAfter(lastEventId ?? null)));
    });
    const retries: RetryEvent[] = [];
    const stream = await new Client({
      apiKey: "k",
      baseUrl,
      initialRetryDelayMs: 1,
      onRetry: (event) => retries.push(event),
    }).messages.stream({ message: "hi", user });
    const { frames, error } = await readAll(stream);
    expect(error).toBeUndefined();
    expect(frames).toEqual(FRAMES);
    expect(lastEventIds).toEqual([FRAME_IDS[2]]);
    expect(stream.lastEventId).toBe(FRAME_IDS[5]);
    expect(stream.conversationId).toBe("conv_1");
    expect(await stream.finalAnswer()).toMatchObject({ text: TEXT, messageId: "msg_9", tokensUsed: 42 });
    expect(retries).toEqual([
      {
        attempt: 1,
        delayMs: expect.any(Number),
        reason: expect.any(ApiConnectionError),
        method: "GET",
        url: `${baseUrl}/v1/conversations/conv_1/stream`,
        lastEventId: FRAME_IDS[2],
      },
    ]);
    expect((retries[0]!.reason as ApiConnectionError).url).toBe(`${baseUrl}/v1/messages`);
  });

  it("after a body that ends without its terminal frame, again and again while each resume brings frames; text() and finalAnswer() see one answer", async () => {
    server.use(postAnswers(2), resumeServes(1));
    const stream = await testClient({ maxStreamResumes: 1 }).messages.stream({ message: "hi", user });
    const texts: string[] = [];
    for await (const text of stream.text()) texts.push(text);
    expect(texts).toEqual(["FHA needs 3.5 % down — ", "with a 580 score. ✓"]);
    expect(sent("GET", resumeUrl).map((request) => request.headers.get("last-event-id"))).toEqual(
      FRAME_IDS.slice(1, 5),
    );
    expect(await stream.finalAnswer()).toMatchObject({ text: TEXT, conversationCreated: true, messageId: "msg_9" });
  });

  it("on the `: reconnect` comment at once, without waiting for that connection to end", async () => {
    server.use(
      http.post(`${BASE}/v1/messages`, () => eventStream(openBody(framesText(0, 3) + RECONNECT))),
      resumeServes(),
    );
    const { frames, error } = await readAll(await testClient().messages.stream({ message: "hi", user }));
    expect(error).toBeUndefined();
    expect(frames).toEqual(FRAMES);
    expect(sent("GET", resumeUrl).map((request) => request.headers.get("last-event-id"))).toEqual([FRAME_IDS[2]]);
  });

  it("on a conversation's own route (no public_api_conversation frame), from the conversation of the call", async () => {
    server.use(
      http.post(`${BASE}/v1/conversations/conv_1/messages`, () => eventStream(framesText(1, 3))),
      resumeServes(),
    );
    const stream = await testClient().conversations.messages.stream("conv_1", { message: "hi", user });
    const { frames, error } = await readAll(stream);
    expect(error).toBeUndefined();
    expect(frames).toEqual(FRAMES.slice(1));
    expect(stream.conversationId).toBe("conv_1");
  });
});

describe("a stream that cannot be resumed", () => {
  it("a reset before the first frame is thrown as the ApiConnectionError it was: no id to resume from, and a streamed POST is never sent twice", async () => {
    const baseUrl = await realServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(": keep-alive\n\n", () => setTimeout(() => res.destroy(), 20));
    });
    const retries: RetryEvent[] = [];
    const stream = await new Client({ apiKey: "k", baseUrl, onRetry: (event) => retries.push(event) }).messages.stream({
      message: "hi",
      user,
    });
    const { frames, error } = await readAll(stream);
    expect(frames).toEqual([]);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).not.toBeInstanceOf(StreamResumeError);
    expect(error).toMatchObject({ method: "POST", url: `${baseUrl}/v1/messages` });
    expect(retries).toEqual([]);
    expect(stream.lastEventId).toBeUndefined();
  });

  it("a body that ends before the first frame ends the loop as before, and nothing is re-requested", async () => {
    server.use(postAnswers(0));
    const stream = await testClient().messages.stream({ message: "hi", user });
    expect((await readAll(stream)).frames).toEqual([]);
    await expect(stream.finalAnswer()).rejects.toMatchObject({ code: "upstream_error" });
    expect(requests.map((request) => request.method)).toEqual(["POST"]);
  });

  it("resumes are bounded: maxStreamResumes (5) in a row without a frame, each told to onRetry, then a StreamResumeError naming what to resume from", async () => {
    server.use(
      postAnswers(3),
      http.get(resumeUrl, () => HttpResponse.json(envelope("upstream_error", "unavailable"), { status: 503 })),
    );
    const retries: RetryEvent[] = [];
    const stream = await testClient({ onRetry: (event) => retries.push(event) }).messages.stream({
      message: "hi",
      user,
    });
    const { frames, error } = await readAll(stream);
    expect(frames).toEqual(FRAMES.slice(0, 3));
    expect(error).toBeInstanceOf(StreamResumeError);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({
      conversationId: "conv_1",
      lastEventId: FRAME_IDS[2],
      attempts: 5,
      method: "GET",
      url: resumeUrl,
    });
    expect((error as Error).cause).toMatchObject({ status: 503 });
    expect(String(error)).toMatch(
      /^StreamResumeError: The stream of conversation conv_1 could not be resumed after 5 attempts/,
    );
    expect(sent("GET", resumeUrl)).toHaveLength(5);
    expect(
      retries.map((event) => [event.attempt, event.reason instanceof ApiConnectionError ? "dropped" : event.reason]),
    ).toEqual([
      [1, "dropped"],
      [2, 503],
      [3, 503],
      [4, 503],
      [5, 503],
    ]);
    expect(stream.lastEventId).toBe(FRAME_IDS[2]);
  });

  it("resumes that drop before a frame count too; maxStreamResumes: 0 turns resuming off", async () => {
    server.use(postAnswers(3), resumeServes(0));
    const error = (await readAll(await testClient({ maxStreamResumes: 2 }).messages.stream({ message: "hi", user })))
      .error;
    expect(error).toMatchObject({ name: "StreamResumeError", attempts: 2 });
    expect(sent("GET", resumeUrl)).toHaveLength(2);

    requests.length = 0;
    const off = await testClient({ maxStreamResumes: 0 }).messages.stream({ message: "hi", user });
    expect(await readAll(off)).toEqual({ frames: FRAMES.slice(0, 3), error: undefined });
    expect(sent("GET", resumeUrl)).toHaveLength(0);
    expect(() => testClient({ maxStreamResumes: -1 })).toThrow(/maxStreamResumes must be a whole number/);
  });

  it.each([400, 401, 403, 404])(
    "a resume answered %i is thrown as that ApiError, without another attempt",
    async (status) => {
      server.use(
        postAnswers(3),
        http.get(resumeUrl, () =>
          HttpResponse.json(envelope(status === 404 ? "not_found" : "invalid_request", "refused", "req_r"), { status }),
        ),
      );
      const { frames, error } = await readAll(await testClient().messages.stream({ message: "hi", user }));
      expect(frames).toEqual(FRAMES.slice(0, 3));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, requestId: "req_r" });
      expect(sent("GET", resumeUrl)).toHaveLength(1);
    },
  );

  it("a 429 to a resume is waited out (its Retry-After) and the resume goes on", async () => {
    let calls = 0;
    server.use(
      postAnswers(3),
      http.get(resumeUrl, ({ request }) =>
        calls++ === 0
          ? HttpResponse.json(envelope("rate_limited", "slow down"), { status: 429, headers: { "Retry-After": "0" } })
          : eventStream(framesText(positionAfter(request.headers.get("last-event-id")))),
      ),
    );
    expect(await readAll(await testClient().messages.stream({ message: "hi", user }))).toEqual({
      frames: FRAMES,
      error: undefined,
    });
  });

  it("the caller's signal stops a resume waiting for its back-off: its AbortError is thrown and nothing more is sent", async () => {
    server.use(postAnswers(3), resumeServes());
    const controller = new AbortController();
    const stream = await testClient({ initialRetryDelayMs: 5_000, onRetry: () => controller.abort() }).messages.stream(
      { message: "hi", user },
      { signal: controller.signal },
    );
    const { error } = await readAll(stream);
    expect(error).toMatchObject({ name: "AbortError" });
    expect(sent("GET", resumeUrl)).toHaveLength(0);
  });
});

describe("cancel() and what a partner keeps", () => {
  it("cancel() stops the answer on the server (POST …/cancel for the stream's conversation) and ends the loop quietly", async () => {
    server.use(
      http.post(`${BASE}/v1/messages`, () => eventStream(openBody(framesText(0, 3)))),
      cancelAnswers(),
    );
    const stream = await testClient().messages.stream({ message: "hi", user });
    const seen: StreamEvent[] = [];
    for await (const frame of stream) {
      seen.push(frame);
      if (seen.length === 2) await stream.cancel();
    }
    expect(seen).toEqual(FRAMES.slice(0, 2));
    expect(sent("POST", `${BASE}/v1/conversations/conv_1/cancel`)).toHaveLength(1);
    await expect(stream.finalAnswer()).rejects.toThrow(/cancelled/);
  });

  it("on a conversation's own route cancel() knows the conversation before any frame; after the terminal frame it sends nothing", async () => {
    server.use(
      http.post(`${BASE}/v1/conversations/conv_1/messages`, () => eventStream(openBody(""))),
      cancelAnswers(),
    );
    const early = await testClient().conversations.messages.stream("conv_1", { message: "hi", user });
    await early.cancel();
    expect(await readAll(early)).toEqual({ frames: [], error: undefined });
    expect(sent("POST", `${BASE}/v1/conversations/conv_1/cancel`)).toHaveLength(1);

    requests.length = 0;
    server.use(postAnswers(6));
    const done = await testClient().messages.stream({ message: "hi", user });
    await done.finalAnswer();
    await done.cancel();
    expect(sent("POST", `${BASE}/v1/conversations/conv_1/cancel`)).toHaveLength(0);
  });

  it("lastEventId and conversationId are what to keep: conversations.resume(id, { lastEventId }) continues the answer from there", async () => {
    server.use(
      http.post(`${BASE}/v1/messages`, () => eventStream(openBody(framesText(0, 3)))),
      resumeServes(),
    );
    const first = await testClient().messages.stream({ message: "hi", user });
    for await (const frame of first) if (frame.type === "content") break;
    expect([first.conversationId, first.lastEventId]).toEqual(["conv_1", FRAME_IDS[1]]);

    const resumed = await testClient().conversations.resume("conv_1", { lastEventId: first.lastEventId });
    expect(await readAll(resumed)).toEqual({ frames: FRAMES.slice(2), error: undefined });
    expect(sent("GET", resumeUrl).map((request) => request.headers.get("last-event-id"))).toEqual([FRAME_IDS[1]]);
    expect(await resumed.finalAnswer()).toMatchObject({ text: TEXT, messageId: "msg_9" });

    const whole = await testClient().conversations.resume("conv_1");
    expect(await readAll(whole)).toEqual({ frames: FRAMES, error: undefined });
    expect(sent("GET", resumeUrl).at(-1)!.headers.has("last-event-id")).toBe(false);
  });

  it("conversations.resume throws a refusal when opened; conversations.cancel returns the API's answer", async () => {
    server.use(
      http.get(`${BASE}/v1/conversations/conv_x/stream`, () =>
        HttpResponse.json(envelope("not_found", "No such conversation", "req_nf"), { status: 404 }),
      ),
      cancelAnswers(),
    );
    await expect(testClient().conversations.resume("conv_x", { lastEventId: "ans_A.1" })).rejects.toMatchObject({
      status: 404,
      code: "not_found",
      requestId: "req_nf",
    });
    expect(await testClient().conversations.cancel("conv_1")).toEqual({
      request_id: "req_c",
      conversation_id: "conv_1",
      message_id: "msg_9",
      status: "generating",
    });
  });
});
