import { describe, expect, it } from "vitest";

import { getConversationOutput, listConversationsOutput } from "@mga/api";
import { createApiKey } from "@mga/core/keys";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope } from "../support/test-app";
import { answer, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * GET /v1/conversations?external_user_id=… (issue 23): a key's conversations with one end user,
 * most recently active first, paged with signed cursors; never another key's; the user id
 * required and in spec 2.1's format.
 */
const setup = useAppWithMockedUpstream();

const json = { "Content-Type": "application/json" };
type Listed = { conversation_id: string; title: string | null; updated_at: string; message_count: number };

const list = (key: string, query: string) => setup.app.request(`/v1/conversations${query}`, { key });

async function create(key: string, externalUserId: string, title: string): Promise<string> {
  const res = await setup.app.request("/v1/conversations", {
    method: "POST",
    key,
    headers: json,
    body: JSON.stringify({ user: { external_user_id: externalUserId }, title }),
  });
  expect(res.status, res.text).toBe(201);
  // Distinct updated_at (millisecond precision), so "newest first" has one answer to check.
  await new Promise((resolve) => setTimeout(resolve, 5));
  return res.body.conversation_id as string;
}

/** Every page from the first, following next_cursor. */
async function walk(key: string, query: string) {
  const pages: Listed[][] = [];
  let cursor: string | null = null;
  do {
    const res = await list(key, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, res.text).toBe(200);
    listConversationsOutput.parse(res.body);
    expect(Object.keys(res.body).sort()).toEqual(["conversations", "next_cursor", "request_id"]);
    pages.push(res.body.conversations);
    cursor = res.body.next_cursor as string | null;
    expect(pages.length).toBeLessThan(50);
  } while (cursor !== null);
  return pages;
}

const titles = (conversations: Listed[]) => conversations.map((conversation) => conversation.title);

describe("GET /v1/conversations", () => {
  describe("happy", () => {
    it("lists the key's conversations with one user, newest first, paged; another key's and another user's never appear", async () => {
      const { key: keyA, organizationId } = await setup.app.newKey({ tenant: ACME_TENANT });
      // A second key of the same organization: ownership is per key, not per organization.
      const keyB = (
        await createApiKey(setup.app.t.db, {
          organizationId,
          name: "second server",
          scopes: ["chat:read", "chat:write"],
        })
      ).plaintext;
      for (let i = 1; i <= 5; i += 1) await create(keyA, "lo-1", `A lo-1 #${i}`);
      await create(keyA, "lo-2", "A lo-2 #1");
      await create(keyB, "lo-1", "B lo-1 #1");
      await create(keyB, "lo-1", "B lo-1 #2");

      const all = await list(keyA, "?external_user_id=lo-1");
      expect(all.status).toBe(200);
      expect(titles(all.body.conversations)).toEqual(["A lo-1 #5", "A lo-1 #4", "A lo-1 #3", "A lo-1 #2", "A lo-1 #1"]);
      expect(all.body.next_cursor).toBeNull();
      // Each entry is the conversation as GET /v1/conversations/{id} shows it.
      for (const listed of all.body.conversations as Listed[]) {
        const one = await setup.app.request(`/v1/conversations/${listed.conversation_id}`, { key: keyA });
        getConversationOutput.parse(one.body);
        expect(listed).toEqual(one.body.conversation);
      }
      for (const limit of [1, 2, 4, 5]) {
        const pages = await walk(keyA, `?external_user_id=lo-1&limit=${limit}`);
        expect(pages.every((page) => page.length <= limit)).toBe(true);
        expect(pages.flat(), `limit ${limit}`).toEqual(all.body.conversations);
      }
      expect(titles((await list(keyA, "?external_user_id=lo-2")).body.conversations)).toEqual(["A lo-2 #1"]);
      expect(titles((await list(keyB, "?external_user_id=lo-1")).body.conversations)).toEqual([
        "B lo-1 #2",
        "B lo-1 #1",
      ]);
      expect((await list(keyB, "?external_user_id=lo-2")).body).toMatchObject({ conversations: [], next_cursor: null });
      // An id in another case is another user.
      expect((await list(keyA, "?external_user_id=LO-1")).body.conversations).toEqual([]);
    });

    it("orders by activity: a conversation that gets a message comes first", async () => {
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
      const oldest = await create(key, "lo-7", "first");
      await create(key, "lo-7", "second");
      await create(key, "lo-7", "third");
      upstreamAnswers(answer());
      const sent = await setup.app.request(`/v1/conversations/${oldest}/messages`, {
        method: "POST",
        key,
        headers: json,
        body: JSON.stringify({ message: "back to this one", user: { external_user_id: "lo-7" } }),
      });
      expect(sent.status, sent.text).toBe(200);
      const res = await list(key, "?external_user_id=lo-7");
      expect(titles(res.body.conversations)).toEqual(["first", "third", "second"]);
      expect(res.body.conversations[0]).toMatchObject({ conversation_id: oldest, message_count: 2 });
      const updated = res.body.conversations.map((conversation: Listed) => Date.parse(conversation.updated_at));
      expect([...updated].sort((a, b) => b - a)).toEqual(updated);
    });

    it("pages 20 by default and at most 100", async () => {
      const { key } = await setup.app.newKey({ tenant: ACME_TENANT, rateLimitPerMinute: 10_000 });
      for (let i = 1; i <= 23; i += 1) await create(key, "lo-9", `#${i}`);
      const first = await list(key, "?external_user_id=lo-9");
      expect(first.body.conversations).toHaveLength(20);
      const rest = await list(key, `?external_user_id=lo-9&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expect(titles(rest.body.conversations)).toEqual(["#3", "#2", "#1"]);
      expect(rest.body.next_cursor).toBeNull();
      expect((await list(key, "?external_user_id=lo-9&limit=100")).body.conversations).toHaveLength(23);
    });
  });

  describe("errors", () => {
    it("refuses a missing or malformed external_user_id, bad limits, and a cursor that is not this list's", async () => {
      const { key, organizationId } = await setup.app.newKey({ tenant: ACME_TENANT });
      await create(key, "lo-3", "one");
      await create(key, "lo-3", "two");
      await create(key, "lo-4", "one");
      await create(key, "lo-4", "two");
      const missing = expectEnvelope(await list(key, ""), 400, "invalid_request");
      expect(missing.message).toContain("external_user_id");
      for (const bad of ["", "lo 3", "lo-3@acme.test", "x".repeat(129), "lo/3", "ü", "lo*3", "lo%003"]) {
        const error = expectEnvelope(
          await list(key, `?external_user_id=${encodeURIComponent(bad)}`),
          400,
          "invalid_request",
        );
        expect(error.message, bad).toContain("external_user_id");
      }
      expect((await list(key, `?external_user_id=${"x".repeat(128)}`)).status).toBe(200);
      expect((await list(key, "?external_user_id=A.b_c:d-9")).status).toBe(200);
      for (const query of ["limit=0", "limit=101", "limit=abc", "limit=2.5", "order=desc", "q=lo"]) {
        expectEnvelope(await list(key, `?external_user_id=lo-3&${query}`), 400, "invalid_request");
      }

      const cursor = (await list(key, "?external_user_id=lo-3&limit=1")).body.next_cursor as string;
      expect((await list(key, `?external_user_id=lo-3&limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
      const other = await createApiKey(setup.app.t.db, {
        organizationId,
        name: "other",
        scopes: ["chat:read", "chat:write"],
      });
      await create(other.plaintext, "lo-3", "theirs");
      await create(other.plaintext, "lo-3", "theirs too");
      upstreamAnswers(answer());
      const asked = await setup.app.request("/v1/messages", {
        method: "POST",
        key,
        headers: json,
        body: JSON.stringify({ message: "FHA?", user: { external_user_id: "lo-5" } }),
      });
      const history = await setup.app.request(`/v1/conversations/${asked.body.conversation_id}/messages?limit=1`, {
        key,
      });
      const refusals: Array<[string, string, string, RegExp]> = [
        [
          "forged",
          key,
          "eyJjIjoiMjAyNi0wMS0wMVQwMDowMDowMC4wMDBaIiwiaSI6ImNvbnZfeCJ9.bm9wZQ",
          /not a cursor returned by this API/,
        ],
        ["another user's", key, (await list(key, "?external_user_id=lo-4&limit=1")).body.next_cursor, /same filters/],
        ["another key's", other.plaintext, cursor, /same filters/],
        ["a history's", key, history.body.next_cursor, /not a cursor returned by this API/],
      ];
      for (const [what, presenter, presented, message] of refusals) {
        expect(presented, what).toEqual(expect.any(String));
        const error = expectEnvelope(
          await list(presenter, `?external_user_id=lo-3&limit=1&cursor=${encodeURIComponent(presented)}`),
          400,
          "invalid_request",
        );
        expect(error.message, what).toMatch(message);
      }
    });
  });

  describe("security", () => {
    it("needs chat:read, and a key", async () => {
      const { key: writer } = await setup.app.newKey({ tenant: ACME_TENANT, scopes: ["chat:write"] });
      expectEnvelope(await list(writer, "?external_user_id=lo-1"), 403, "forbidden");
      expectEnvelope(await setup.app.request("/v1/conversations?external_user_id=lo-1"), 401, "unauthorized");
    });
  });
});
