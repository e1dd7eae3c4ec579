import { describe, expect, it } from "vitest";

import { streamEventSchema } from "@mga/api";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope } from "../support/test-app";
import {
  answer,
  readSse,
  received,
  upstreamAnswers,
  upstreamStatus,
  useAppWithMockedUpstream,
} from "../support/upstream-mock";

const setup = useAppWithMockedUpstream({ sseKeepAliveMs: 100 });

const user = { external_user_id: "lo-1" };
function postStream(path: string, key: string, body: object, headers: Record<string, string> = {}) {
  return fetch(`${setup.app.baseUrl}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ stream: true, ...body }),
  });
}

describe("stream: true", () => {
  it("POST /v1/messages: conversation event first, upstream events, then public_api_complete with the stored id", async () => {
    upstreamAnswers(answer());
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const res = await postStream("/v1/messages", key, { message: "FHA down payment?", user });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const requestId = res.headers.get("x-request-id");
    const { frames, rest } = await readSse(res);
    expect(rest).toBe("");
    for (const frame of frames) streamEventSchema.parse(frame);
    expect(frames.map((frame) => frame.type)).toEqual([
      "public_api_conversation",
      "content",
      "content",
      "content_postprocessed",
      "complete",
      "public_api_complete",
    ]);
    expect(frames[0]).toEqual({
      type: "public_api_conversation",
      request_id: requestId,
      conversation_id: expect.stringMatching(/^conv_/),
      conversation_created: true,
    });
    expect(frames[1].content + frames[2].content).toBe("FHA requires 3.5 percent down. [1]");
    expect(frames[4]).toMatchObject({ metadata: { tokens_used: 42 }, citations: [{ id: "fha-1" }] });
    const last = frames.at(-1);
    expect(last).toEqual({
      type: "public_api_complete",
      request_id: requestId,
      conversation_id: frames[0].conversation_id,
      message_id: expect.stringMatching(/^msg_/),
    });
    const history = await setup.app.request(`/v1/conversations/${last.conversation_id}/messages`, { key });
    expect(history.body.messages.map((m: { message_id: string; role: string }) => m.role)).toEqual([
      "user",
      "assistant",
    ]);
    expect(history.body.messages[1].message_id).toBe(last.message_id);
  });

  it("POST /v1/conversations/{id}/messages streams without the conversation event", async () => {
    upstreamAnswers(answer());
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const conversation = await setup.app.request("/v1/conversations", {
      method: "POST",
      key,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user }),
    });
    const { frames } = await readSse(
      await postStream(`/v1/conversations/${conversation.body.conversation_id}/messages`, key, { message: "hi", user }),
    );
    expect(frames.map((frame) => frame.type)).toEqual([
      "content",
      "content",
      "content_postprocessed",
      "complete",
      "public_api_complete",
    ]);
  });

  it("passes content through as it arrives, not buffered, with keep-alive comments during pauses", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    upstreamAnswers([
      { event: { type: "content", content: "first " } },
      { waitFor: released },
      { wait: 350 },
      ...answer("later text"),
    ]);
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const res = await postStream("/v1/messages", key, { message: "hi", user });
    const seenBeforeRelease: string[] = [];
    const { frames, comments } = await readSse(res, (frame) => {
      if (frame.type === "content" && frame.content === "first ") {
        seenBeforeRelease.push(frame.content);
        release();
      }
    });
    // The first fragment reached us while the upstream was still holding the rest back.
    expect(seenBeforeRelease).toEqual(["first "]);
    expect(frames.at(-1).type).toBe("public_api_complete");
    expect(comments.length).toBeGreaterThan(0);
    expect(comments[0]).toBe(": keep-alive");
  });

  it("refuses Idempotency-Key with stream: true (400, nothing sent upstream)", async () => {
    upstreamAnswers(answer());
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const res = await postStream("/v1/messages", key, { message: "hi", user }, { "Idempotency-Key": "abc" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toMatch(/Idempotency-Key/);
    expect(received).toHaveLength(0);
  });

  it("checks key, scope and body before streaming, answering JSON errors", async () => {
    const reader = await setup.app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read"] });
    const writer = await setup.app.newKey({ tenant: ACME_TENANT });
    const asJson = async (res: Response) => ({ status: res.status, headers: res.headers, body: await res.json() });
    expectEnvelope(
      await asJson(await postStream("/v1/messages", "mga_sk_bad", { message: "hi", user })),
      401,
      "unauthorized",
    );
    expectEnvelope(
      await asJson(await postStream("/v1/messages", reader.key, { message: "hi", user })),
      403,
      "forbidden",
    );
    expectEnvelope(
      await asJson(await postStream("/v1/messages", writer.key, { message: "", user })),
      400,
      "invalid_request",
    );
    expectEnvelope(
      await asJson(await postStream("/v1/conversations/conv_nope/messages", writer.key, { message: "hi", user })),
      404,
      "not_found",
    );
  });
});

describe("upstream failures while streaming", () => {
  it("before the first event: a 502 JSON error, nothing stored", async () => {
    upstreamStatus(500);
    const { key, id } = await setup.app.newKey({ tenant: ACME_TENANT });
    const res = await postStream("/v1/messages", key, { message: "hi", user });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("upstream_error");
    const stored = await setup.app.t.db.sql.query(
      "SELECT count(*)::int AS n FROM conversations WHERE api_key_id = $1",
      [id],
    );
    expect(stored.rows[0].n).toBe(0);
  });

  it("after the stream started: one terminal error event, and the partial answer stored as incomplete", async () => {
    upstreamAnswers([{ event: { type: "content", content: "FHA requires " } }, { wait: 50 }, { fail: true }]);
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const res = await postStream("/v1/messages", key, { message: "hi", user });
    const { frames } = await readSse(res);
    expect(frames.map((frame) => frame.type)).toEqual(["public_api_conversation", "content", "error"]);
    expect(frames[2]).toEqual({
      type: "error",
      status: 502,
      error: { code: "upstream_error", message: expect.any(String), request_id: res.headers.get("x-request-id") },
    });
    const history = await setup.app.request(`/v1/conversations/${frames[0].conversation_id}/messages`, { key });
    expect(history.body.messages).toHaveLength(2);
    expect(history.body.messages[1]).toMatchObject({
      role: "assistant",
      content: "FHA requires ",
      metadata: { incomplete: true, tokens_used: 0 },
    });
    const conversation = await setup.app.request(`/v1/conversations/${frames[0].conversation_id}`, { key });
    expect(conversation.body.conversation.message_count).toBe(2);
  });

  it("a stream that ends without complete is an error, not a success", async () => {
    upstreamAnswers([{ event: { type: "content", content: "partial" } }]);
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const { frames } = await readSse(await postStream("/v1/messages", key, { message: "hi", user }));
    expect(frames.at(-1)).toMatchObject({ type: "error", error: { code: "upstream_error" } });
    expect(frames.some((frame) => frame.type === "public_api_complete")).toBe(false);
  });
});
