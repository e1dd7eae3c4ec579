import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { UpstreamError, type ChatUpstream, type UpstreamEvent } from "@mga/core/conversations";
import { createApiKey, type Scope } from "@mga/core/keys";
import { createOrganization } from "@mga/core/orgs";
import { configureTenant } from "@mga/core/tenants";
import { createTestDatabase, type TestDatabase } from "@mga/core/testing";

import {
  appRouter,
  createCallerFactory,
  matchMessageStream,
  streamMessage,
  toApiError,
  type ApiContext,
  type FrameSink,
  type StreamEvent,
} from "../../src/index";

/** A message route's streamed answer through the one pipeline, without HTTP (issue 13). */
let t: TestDatabase;
const createCaller = createCallerFactory(appRouter);
let upstreamCalls = 0;
let upstreamEvents: Array<UpstreamEvent | "fail"> = [];
const upstream: ChatUpstream = {
  async *stream() {
    upstreamCalls += 1;
    for (const event of upstreamEvents) {
      if (event === "fail") throw new UpstreamError("truncated", "connection reset");
      yield event;
    }
  },
};
const ANSWER: UpstreamEvent[] = [
  { type: "content", content: "FHA requires " },
  { type: "content", content: "3.5 percent." },
  { type: "content_postprocessed", content: "FHA requires 3.5 percent." },
  { type: "complete", tokensUsed: 9 },
];
const TENANT = {
  clientName: "Gate",
  enabledSources: ["fha"],
  baseSources: ["fha"],
  tenantSources: [],
  defaultTenantSourceKeys: [],
};
const user = { external_user_id: "lo-1" };

function context(presentedKey: string, idempotencyKey?: string): ApiContext {
  return {
    db: t.db,
    upstream,
    directory: { siteAccounts: {} as never, chatIdentities: {} as never },
    queue: {} as never,
    appUrl: "http://app.test",
    requestId: "req_stream",
    clientAddress: "127.0.0.1",
    presentedKey,
    idempotencyKey,
    staffSessionToken: undefined,
    csrfHeader: undefined,
    response: { headers: {} },
    record: {},
  };
}

function sink(): FrameSink & { frames: StreamEvent[] } {
  const frames: StreamEvent[] = [];
  return {
    frames,
    get hasStarted() {
      return frames.length > 0;
    },
    send(frame) {
      frames.push(frame);
    },
  };
}

async function newKey(scopes: Scope[] = ["chat:read", "chat:write"]) {
  const org = await createOrganization(t.db, { name: "Stream" });
  await configureTenant(t.db, { organizationId: org.id, config: TENANT });
  return (await createApiKey(t.db, { organizationId: org.id, name: "k", scopes })).plaintext;
}

const stream = (path: string, body: object) => {
  const request = matchMessageStream("POST", path, { ...body, stream: true });
  if (!request) throw new Error(`${path} is not a message route`);
  return request;
};

async function refusalOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (thrown: unknown) => thrown,
  );
  const { status, code, message } = toApiError(error);
  return { status, code, message };
}

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());
beforeEach(() => {
  upstreamCalls = 0;
  upstreamEvents = ANSWER;
});

describe("matchMessageStream", () => {
  it("matches POST to a message route with stream: true, as the REST adapter matches paths", () => {
    expect(matchMessageStream("POST", "/v1/messages", { stream: true, message: "hi" })).toMatchObject({
      route: { path: "/v1/messages" },
      input: { stream: true, message: "hi" },
    });
    expect(matchMessageStream("POST", "/V1/Messages/", { stream: true })?.route.path).toBe("/v1/messages");
    expect(
      matchMessageStream("POST", "/v1/conversations/conv%20a/messages", { stream: true, conversationId: "other" }),
    ).toMatchObject({
      route: { path: "/v1/conversations/{conversationId}/messages" },
      input: { stream: true, conversationId: "conv a" },
    });
  });

  it("leaves everything else to the REST adapter", () => {
    for (const [method, path, body] of [
      ["GET", "/v1/messages", { stream: true }],
      ["POST", "/v1/messages", { stream: "true" }],
      ["POST", "/v1/messages", { stream: false }],
      ["POST", "/v1/messages", [{ stream: true }]],
      ["POST", "/v1/messages", null],
      ["POST", "/v1/messages/extra", { stream: true }],
      ["POST", "/v1/conversations//messages", { stream: true }],
      ["POST", "/v1/conversations", { stream: true }],
    ] as const) {
      expect(matchMessageStream(method, path, body)).toBeUndefined();
    }
  });
});

describe("streamMessage", () => {
  it("checks the key, then the scope, then Idempotency-Key, then the body, before any frame", async () => {
    const reader = await newKey(["chat:read"]);
    const writer = await newKey();
    const bad = { message: "" };
    const out = sink();
    expect(
      await refusalOf(streamMessage(context("mga_sk_bad", "abc"), stream("/v1/messages", bad), out)),
    ).toMatchObject({ status: 401, code: "unauthorized" });
    expect(await refusalOf(streamMessage(context(reader, "abc"), stream("/v1/messages", bad), out))).toMatchObject({
      status: 403,
      code: "forbidden",
    });
    expect(await refusalOf(streamMessage(context(writer, "abc"), stream("/v1/messages", bad), out))).toEqual({
      status: 400,
      code: "invalid_request",
      message: "Idempotency-Key is not supported with stream: true; send one or the other",
    });
    expect(await refusalOf(streamMessage(context(writer), stream("/v1/messages", bad), out))).toMatchObject({
      status: 400,
      code: "invalid_request",
    });
    expect(out.frames).toEqual([]);
    expect(upstreamCalls).toBe(0);
  });

  it("refuses a body word for word as the route's JSON procedure does (one schema)", async () => {
    const key = await newKey();
    const caller = createCaller(context(key));
    for (const body of [
      { message: "", user },
      { message: "hi" },
      { message: "hi", user, extra: 1 },
      { message: "hi", user, conversation: { title: "" } },
    ]) {
      const input = { ...body, stream: true };
      const json = await refusalOf(caller.conversations.sendMessage(input as never));
      expect(await refusalOf(streamMessage(context(key), stream("/v1/messages", body), sink()))).toEqual(json);
      const jsonToConversation = await refusalOf(
        caller.conversations.sendToConversation({ ...input, conversationId: "conv_x" } as never),
      );
      expect(
        await refusalOf(streamMessage(context(key), stream("/v1/conversations/conv_x/messages", body), sink())),
      ).toEqual(jsonToConversation);
    }
  });

  it("hands over the frames of spec 6.1 and records the rate-limit headers", async () => {
    const key = await newKey();
    const ctx = context(key);
    const first = sink();
    await streamMessage(ctx, stream("/v1/messages", { message: "FHA down payment?", user }), first);
    expect(first.frames.map((frame) => frame.type)).toEqual([
      "public_api_conversation",
      "content",
      "content",
      "content_postprocessed",
      "complete",
      "public_api_complete",
    ]);
    expect(first.frames[0]).toEqual({
      type: "public_api_conversation",
      request_id: "req_stream",
      conversation_id: expect.stringMatching(/^conv_/),
      conversation_created: true,
    });
    expect(first.frames[4]).toMatchObject({ type: "complete", metadata: { tokens_used: 9 } });
    expect(ctx.response.headers).toMatchObject({ "RateLimit-Policy": '"per-key";q=600;w=60' });
    const conversationId = (first.frames[0] as { conversation_id: string }).conversation_id;
    const second = sink();
    await streamMessage(
      context(key),
      stream(`/v1/conversations/${conversationId}/messages`, { message: "And VA?", user }),
      second,
    );
    // The route that names its conversation does not announce it.
    expect(second.frames.map((frame) => frame.type)).toEqual([
      "content",
      "content",
      "content_postprocessed",
      "complete",
      "public_api_complete",
    ]);
    expect(second.frames.at(-1)).toMatchObject({ conversation_id: conversationId });
  });

  it("an upstream failure: thrown before the first frame, a terminal error frame after it; 5xx reported either way", async () => {
    const key = await newKey();
    const reported: unknown[] = [];
    upstreamEvents = ["fail"];
    const early = sink();
    expect(
      await refusalOf(
        streamMessage(context(key), stream("/v1/messages", { message: "hi", user }), early, {
          onError: (error) => reported.push(error),
        }),
      ),
    ).toMatchObject({
      status: 502,
      code: "upstream_error",
    });
    expect(early.frames).toEqual([]);
    upstreamEvents = [{ type: "content", content: "partial" }, "fail"];
    const late = sink();
    await streamMessage(context(key), stream("/v1/messages", { message: "hi", user }), late, {
      onError: (error) => reported.push(error),
    });
    expect(late.frames.map((frame) => frame.type)).toEqual(["public_api_conversation", "content", "error"]);
    expect(late.frames.at(-1)).toEqual({
      type: "error",
      status: 502,
      error: { code: "upstream_error", message: expect.any(String), request_id: "req_stream" },
    });
    expect(reported).toHaveLength(2);
  });
});
