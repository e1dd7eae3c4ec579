import { describe, expect, it } from "vitest";

import { createApiKey } from "@mga/core/keys";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope } from "../support/test-app";
import { answer, readSse, received, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * POST /v1/conversations/{conversationId}/cancel. Stopping an answer while it is generated
 * (the upstream call ends, the partial answer is kept) needs an upstream that stalls over a
 * real socket: that is in cancellation.test.ts.
 */
const setup = useAppWithMockedUpstream();

const json = { "Content-Type": "application/json" };
const user = { external_user_id: "lo-cancel" };
const cancel = (conversationId: string, key?: string, body: unknown = {}) =>
  setup.app.request(`/v1/conversations/${conversationId}/cancel`, {
    method: "POST",
    key,
    headers: json,
    body: JSON.stringify(body),
  });

/** A conversation whose streamed answer has ended. */
async function streamedConversation(key: string) {
  upstreamAnswers(answer());
  const res = await fetch(`${setup.app.baseUrl}/v1/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, ...json },
    body: JSON.stringify({ message: "FHA?", user, stream: true }),
  });
  const { frames } = await readSse(res);
  return frames[0]?.conversation_id as string;
}

describe("POST /v1/conversations/{conversationId}/cancel", () => {
  describe("happy", () => {
    it("an answer that has already ended is left as it is: 200 with its message and status", async () => {
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const conversationId = await streamedConversation(key);
      const res = await cancel(conversationId, key);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ conversation_id: conversationId, status: "complete" });
      expect(res.body.message_id).toMatch(/\S/);
    });
  });

  describe("errors", () => {
    it("404 for an unknown conversation and for one without a streamed answer; 400 for a body field it does not take", async () => {
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      expectEnvelope(await cancel("conv_nope", key), 404, "not_found");
      const created = await setup.app.request("/v1/conversations", {
        method: "POST",
        key,
        headers: json,
        body: JSON.stringify({ user }),
      });
      expect(created.status).toBe(201);
      expectEnvelope(await cancel(created.body.conversation_id, key), 404, "not_found");
      expectEnvelope(await cancel(created.body.conversation_id, key, { zz: 1 }), 400, "invalid_request");
    });
  });

  describe("security", () => {
    it("needs a key and chat:write; another key's conversation, in the same organization or not, is a 404", async () => {
      const owner = await setup.app.newKey({ tenant: ACME_TENANT });
      const conversationId = await streamedConversation(owner.key);
      expectEnvelope(await cancel(conversationId), 401, "unauthorized");
      const reader = await createApiKey(setup.app.t.db, {
        organizationId: owner.organizationId,
        name: "reader",
        scopes: ["chat:read"],
      });
      expectEnvelope(await cancel(conversationId, reader.plaintext), 403, "forbidden");
      const sameOrg = await createApiKey(setup.app.t.db, {
        organizationId: owner.organizationId,
        name: "other",
        scopes: ["chat:read", "chat:write"],
      });
      const otherOrg = await setup.app.newKey({ tenant: ACME_TENANT });
      for (const key of [sameOrg.plaintext, otherOrg.key])
        expectEnvelope(await cancel(conversationId, key), 404, "not_found");
      expect(received).toHaveLength(1);
    });
  });
});
