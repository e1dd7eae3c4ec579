import { describe, expect, it } from "vitest";

import { HttpChatUpstream } from "@mga/core/conversations";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope, startTestApp } from "../support/test-app";
import { answer, received, upstreamAnswers, upstreamStatus, useAppWithMockedUpstream } from "../support/upstream-mock";

/** JSON answers when the upstream fails: 502 upstream_error, nothing stored, no retry. */
const setup = useAppWithMockedUpstream();

const user = { external_user_id: "u" };
async function ask(key: string, conversationId?: string) {
  const path = conversationId ? `/v1/conversations/${conversationId}/messages` : "/v1/messages";
  return setup.app.request(path, {
    method: "POST",
    key,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ message: "hi", user }),
  });
}
async function storedFor(apiKeyId: string) {
  const { rows } = await setup.app.t.db.sql.query(
    "SELECT (SELECT count(*)::int FROM conversations WHERE api_key_id = $1) AS conversations, (SELECT count(*)::int FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.api_key_id = $1) AS messages",
    [apiKeyId],
  );
  return rows[0];
}

describe("upstream failures (JSON)", () => {
  it.each([
    ["HTTP 500", () => upstreamStatus(500)],
    ["HTTP 401 (bad upstream credentials)", () => upstreamStatus(401)],
    [
      "a malformed event",
      () => upstreamAnswers([{ event: { type: "content", content: "a" } }, { raw: "data: {not json\n\n" }]),
    ],
    ["a content event without content", () => upstreamAnswers([{ event: { type: "content" } }])],
    [
      "a complete event without tokens",
      () =>
        upstreamAnswers([{ event: { type: "content", content: "a" } }, { event: { type: "complete", metadata: {} } }]),
    ],
    [
      "an upstream error event",
      () => upstreamAnswers([{ event: { type: "error", message: "model overloaded", model: "secret-model" } }]),
    ],
    ["a stream that stops before complete", () => upstreamAnswers([{ event: { type: "content", content: "a" } }])],
    [
      "a connection reset mid-stream",
      () => upstreamAnswers([{ event: { type: "content", content: "a" } }, { wait: 20 }, { fail: true }]),
    ],
  ])("%s → 502 upstream_error, nothing stored, one upstream call", async (_name, arrange) => {
    arrange();
    const { key, id } = await setup.app.newKey({ tenant: ACME_TENANT });
    const res = await ask(key);
    const error = expectEnvelope(res, 502, "upstream_error");
    expect(error.message).not.toMatch(/secret-model|overloaded/);
    expect(await storedFor(id)).toEqual({ conversations: 0, messages: 0 });
    expect(received.length).toBeLessThanOrEqual(1);
  });

  it("leaves an existing conversation unchanged", async () => {
    upstreamAnswers(answer());
    const { key, id } = await setup.app.newKey({ tenant: ACME_TENANT });
    const first = await ask(key);
    upstreamStatus(503);
    expectEnvelope(await ask(key, first.body.conversation_id), 502, "upstream_error");
    expect(await storedFor(id)).toEqual({ conversations: 1, messages: 2 });
  });

  it("an unreachable upstream is a 502 too", async () => {
    const unreachable = await startTestApp({
      upstream: new HttpChatUpstream({ url: "http://127.0.0.1:9", connectTimeoutMs: 1_000 }),
      shareDatabaseWith: setup.app,
    });
    try {
      const { key } = await unreachable.newKey({ tenant: ACME_TENANT });
      const res = await unreachable.request("/v1/messages", {
        method: "POST",
        key,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message: "hi", user }),
      });
      expectEnvelope(res, 502, "upstream_error");
    } finally {
      await unreachable.close();
    }
  });
});
