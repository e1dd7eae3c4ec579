import { describe, expect, it } from "vitest";

import { getConversationOutput, listMessagesOutput, sendMessageOutput } from "@mga/api";
import { createApiKey } from "@mga/core/keys";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope } from "../support/test-app";
import { answer, received, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

const setup = useAppWithMockedUpstream();

const json = { "Content-Type": "application/json" };
const user = { external_user_id: "lo-17", email: "lo17@acme.test", name: "Loan Officer" };
const post = (path: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
  setup.app.request(path, { method: "POST", key, headers: { ...json, ...headers }, body: JSON.stringify(body) });

describe("POST /v1/conversations, GET /v1/conversations/{conversationId}, POST /v1/messages, POST /v1/conversations/{conversationId}/messages", () => {
  describe("happy", () => {
    it("creates the conversation, answers with exactly the spec's fields, and stores both messages", async () => {
      upstreamAnswers(answer());
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const res = await post("/v1/messages", key, {
        message: "What is the minimum down payment for an FHA loan?",
        user,
        conversation: { title: "FHA", metadata: { loan: "L1" } },
      });
      expect(res.status).toBe(200);
      sendMessageOutput.parse(res.body);
      expect(Object.keys(res.body).sort()).toEqual([
        "citations",
        "conversation_created",
        "conversation_id",
        "message_id",
        "metadata",
        "request_id",
        "response",
        "sources",
      ]);
      expect(res.body).toMatchObject({
        request_id: res.headers.get("x-request-id"),
        conversation_created: true,
        response: "FHA requires 3.5 percent down. [1]",
        citations: [
          {
            id: "fha-1",
            title: "FHA down payment",
            source_type: "fha",
            excerpt: "3.5 percent",
            url: "https://example.test/fha",
          },
        ],
        sources: [{ source_type: "fha", label: "FHA" }],
        metadata: { tokens_used: 42 },
      });

      const conversation = await setup.app.request(`/v1/conversations/${res.body.conversation_id}`, { key });
      getConversationOutput.parse(conversation.body);
      expect(conversation.body.conversation).toMatchObject({
        conversation_id: res.body.conversation_id,
        title: "FHA",
        status: "active",
        message_count: 2,
        metadata: { loan: "L1" },
      });

      const history = await setup.app.request(`/v1/conversations/${res.body.conversation_id}/messages`, { key });
      listMessagesOutput.parse(history.body);
      expect(history.body.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
      expect(history.body.messages[0]).toMatchObject({
        content: "What is the minimum down payment for an FHA loan?",
        citations: [],
        sources: [],
      });
      expect(history.body.messages[1]).toMatchObject({
        message_id: res.body.message_id,
        content: res.body.response,
        citations: res.body.citations,
        metadata: { tokens_used: 42 },
      });
    });

    it("sends the upstream its credentials, the history, the new message and the resolved sources", async () => {
      upstreamAnswers(answer());
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const first = await post("/v1/messages", key, { message: "first question", user });
      upstreamAnswers(answer("second answer"));
      const second = await post(`/v1/conversations/${first.body.conversation_id}/messages`, key, {
        message: "second question",
        user,
        search_options: { agency_source_types: ["fha", "va"], tenant_source_keys: [] },
      });
      expect(second.status).toBe(200);
      expect(second.body).not.toHaveProperty("conversation_created");
      expect(received[0]?.body.sources).toEqual({
        agency_source_types: ["fannie_mae"],
        tenant_source_keys: ["acme_overlays"],
        shared_source_types: ["state_rules"],
      });
      expect(received[1]?.body).toMatchObject({
        conversation_id: first.body.conversation_id,
        message: "second question",
        history: [
          { role: "user", content: "first question" },
          { role: "assistant", content: "FHA requires 3.5 percent down. [1]" },
        ],
        sources: { agency_source_types: ["fha", "va"], tenant_source_keys: [], shared_source_types: ["state_rules"] },
        // What the tenant enables besides the selection, so the upstream can say a program is switched off.
        enabled_agency_source_types: ACME_TENANT.enabledSources,
      });
      const history = await setup.app.request(`/v1/conversations/${first.body.conversation_id}/messages`, { key });
      expect(history.body.messages.map((m: { content: string }) => m.content)).toEqual([
        "first question",
        "FHA requires 3.5 percent down. [1]",
        "second question",
        "second answer",
      ]);
    });

    it("accepts tokensUsed as well as tokens_used", async () => {
      upstreamAnswers(answer("ok", { complete: { type: "complete", metadata: { tokensUsed: 7 } } }));
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const res = await post("/v1/messages", key, { message: "hi", user });
      expect(res.body.metadata).toEqual({ tokens_used: 7 });
    });

    it("drops model, provider, prompt and diagnostics from citations, sources and metadata", async () => {
      upstreamAnswers(
        answer("clean answer", {
          citations: [
            {
              id: "c1",
              title: "T",
              source_type: "fha",
              excerpt: "x",
              model: "gpt-x",
              provider: "openai",
              prompt: "SYSTEM: secret",
              score: 0.93,
              chunk_id: "internal-7",
              url: "javascript:alert(1)",
            },
          ],
          sources: [
            {
              source_type: "fha",
              label: "FHA",
              retrieval: { index: "prod-idx", latency_ms: 12 },
              config: { temperature: 0 },
            },
          ],
          complete: {
            type: "complete",
            metadata: { tokens_used: 3, model: "gpt-x", provider: "openai", prompt_tokens: 2 },
          },
        }),
      );
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const res = await post("/v1/messages", key, { message: "hi", user });
      expect(res.body.citations).toEqual([{ id: "c1", title: "T", source_type: "fha", excerpt: "x" }]);
      expect(res.body.sources).toEqual([{ source_type: "fha", label: "FHA" }]);
      expect(res.body.metadata).toEqual({ tokens_used: 3 });
      const history = await setup.app.request(`/v1/conversations/${res.body.conversation_id}/messages`, { key });
      for (const leaked of ["gpt-x", "openai", "SYSTEM", "prod-idx", "internal-7", "temperature", "javascript:"]) {
        expect(res.text).not.toContain(leaked);
        expect(history.text).not.toContain(leaked);
      }
    });

    it("accepts a 4000-character message", async () => {
      upstreamAnswers(answer());
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      expect((await post("/v1/messages", key, { message: "x".repeat(4000), user })).status).toBe(200);
    });
  });

  describe("errors", () => {
    it("validates the body: required fields, types, limits and unknown fields, naming the field", async () => {
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const countConversations = async () =>
        (await setup.app.t.db.sql.query("SELECT count(*)::int AS n FROM conversations")).rows[0].n;
      const before = await countConversations();
      const cases: Array<[unknown, string]> = [
        [{ user }, "message"],
        [{ message: "", user }, "message"],
        [{ message: "x".repeat(4001), user }, "message"],
        [{ message: "hi" }, "user"],
        [{ message: "hi", user: { external_user_id: "" } }, "user.external_user_id"],
        [{ message: "hi", user: { ...user, email: "not-an-email" } }, "user.email"],
        [{ message: "hi", user, stream: "yes" }, "stream"],
        [{ message: 5, user }, "message"],
        [{ message: "hi", user, surprise: true }, "surprise"],
        [
          { message: "hi", user, search_options: { agency_source_types: ["usda"] } },
          "search_options.agency_source_types",
        ],
        [
          { message: "hi", user, search_options: { shared_source_types: ["federal"] } },
          "search_options.shared_source_types",
        ],
        [
          {
            message: "hi",
            user,
            search_options: { agency_source_types: [], tenant_source_keys: [], shared_source_types: [] },
          },
          "no source left",
        ],
        [{ message: "hi", user, metadata: "x" }, "metadata"],
      ];
      for (const [body, field] of cases) {
        const error = expectEnvelope(await post("/v1/messages", key, body), 400, "invalid_request");
        expect(error.message, JSON.stringify(body).slice(0, 80)).toContain(field);
      }
      expect(received).toHaveLength(0);
      expect(await countConversations()).toBe(before);
    });

    it("404 for an unknown conversation id", async () => {
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      expectEnvelope(await setup.app.request("/v1/conversations/conv_nope", { key }), 404, "not_found");
    });
  });

  describe("security", () => {
    it("needs chat:write to send and chat:read to read", async () => {
      upstreamAnswers(answer());
      const writer = await setup.app.newKey({ tenant: ACME_TENANT, scopes: ["chat:write"] });
      const reader = await setup.app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read"] });
      expectEnvelope(await post("/v1/messages", reader.key, { message: "hi", user }), 403, "forbidden");
      expectEnvelope(await post("/v1/conversations", reader.key, { user }), 403, "forbidden");
      const sent = await post("/v1/messages", writer.key, { message: "hi", user });
      expect(sent.status).toBe(200);
      expectEnvelope(
        await setup.app.request(`/v1/conversations/${sent.body.conversation_id}`, { key: writer.key }),
        403,
        "forbidden",
      );
    });

    it("another key of the same organization gets 404 everywhere", async () => {
      upstreamAnswers(answer());
      const owner = await setup.app.newKey({ tenant: ACME_TENANT });
      const created = await post("/v1/conversations", owner.key, { user, title: "Mine" });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(["conversation_id", "request_id"]);
      const { key: otherKey } = await setup.app.newKey({ tenant: ACME_TENANT });
      // Same organization: a second key created in the owner's organization.
      const sameOrg = await createApiKey(setup.app.t.db, {
        organizationId: owner.organizationId,
        name: "other",
        scopes: ["chat:read", "chat:write"],
      });
      for (const key of [otherKey, sameOrg.plaintext]) {
        expectEnvelope(
          await setup.app.request(`/v1/conversations/${created.body.conversation_id}`, { key }),
          404,
          "not_found",
        );
        expectEnvelope(
          await setup.app.request(`/v1/conversations/${created.body.conversation_id}/messages`, { key }),
          404,
          "not_found",
        );
        expectEnvelope(
          await post(`/v1/conversations/${created.body.conversation_id}/messages`, key, { message: "hi", user }),
          404,
          "not_found",
        );
        expectEnvelope(
          await post("/v1/messages", key, { message: "hi", user, conversation_id: created.body.conversation_id }),
          404,
          "not_found",
        );
      }
      expect(received).toHaveLength(0);
      const own = await setup.app.request(`/v1/conversations/${created.body.conversation_id}`, { key: owner.key });
      expect(own.body.conversation).toMatchObject({ title: "Mine", message_count: 0 });
    });
  });
});
