import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";

import { BASE, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();

const queryOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
const conversation = (id: string) => ({
  conversation_id: id,
  title: null,
  status: "active",
  created_at: null,
  updated_at: null,
  message_count: 0,
  metadata: {},
});
const message = (id: string) => ({
  message_id: id,
  role: "user",
  content: id,
  citations: [],
  sources: [],
  metadata: {},
  created_at: null,
});

describe("conversations.list and listAll", () => {
  it("list asks for one user's conversations: one page, with its cursor", async () => {
    server.use(
      http.get(`${BASE}/v1/conversations`, () =>
        HttpResponse.json({ request_id: "r", conversations: [conversation("conv_a")], next_cursor: "c2" }),
      ),
    );
    const page = await testClient().conversations.list({ external_user_id: "lo-17", limit: 1 });
    expect(page.conversations.map((c) => c.conversation_id)).toEqual(["conv_a"]);
    expect(page.next_cursor).toBe("c2");
    expect(requests.map(queryOf)).toEqual([{ external_user_id: "lo-17", limit: "1" }]);
  });

  it("listAll walks next_cursor with the same user and limit, and stops at null", async () => {
    const pages: Record<string, { conversations: object[]; next_cursor: string | null }> = {
      "": { conversations: [conversation("conv_a"), conversation("conv_b")], next_cursor: "c2" },
      c2: { conversations: [conversation("conv_c")], next_cursor: null },
    };
    server.use(
      http.get(`${BASE}/v1/conversations`, ({ request }) =>
        HttpResponse.json({ request_id: "r", ...pages[new URL(request.url).searchParams.get("cursor") ?? ""] }),
      ),
    );
    const ids: string[] = [];
    for await (const c of testClient().conversations.listAll({ external_user_id: "lo-17", limit: 2 }))
      ids.push(c.conversation_id);
    expect(ids).toEqual(["conv_a", "conv_b", "conv_c"]);
    expect(requests.map(queryOf)).toEqual([
      { external_user_id: "lo-17", limit: "2" },
      { external_user_id: "lo-17", limit: "2", cursor: "c2" },
    ]);
  });
});

describe("conversations.messages.list and listAll", () => {
  const path = `${BASE}/v1/conversations/conv_1/messages`;

  it("list without paging sends no query, as before; `{ signal }` as the second argument still is the call's signal", async () => {
    server.use(
      http.get(path, () =>
        HttpResponse.json({ request_id: "r", conversation_id: "conv_1", messages: [message("m1")] }),
      ),
    );
    const whole = await testClient().conversations.messages.list("conv_1");
    expect(whole.messages).toHaveLength(1);
    expect(whole.next_cursor).toBeUndefined();
    const controller = new AbortController();
    await testClient().conversations.messages.list("conv_1", { signal: controller.signal });
    expect(requests.map((request) => new URL(request.url).search)).toEqual(["", ""]);
    controller.abort();
    await expect(testClient().conversations.messages.list("conv_1", { signal: controller.signal })).rejects.toThrow();
  });

  it("list pages with limit, cursor and order", async () => {
    server.use(
      http.get(path, () =>
        HttpResponse.json({ request_id: "r", conversation_id: "conv_1", messages: [message("m9")], next_cursor: "c3" }),
      ),
    );
    const page = await testClient().conversations.messages.list("conv_1", { limit: 1, cursor: "c2", order: "desc" });
    expect(page.next_cursor).toBe("c3");
    expect(requests.map(queryOf)).toEqual([{ limit: "1", cursor: "c2", order: "desc" }]);
  });

  it("listAll pages (100 a page by default) in the order asked, until next_cursor is null or absent", async () => {
    const pages: Record<string, { messages: object[]; next_cursor?: string | null }> = {
      "": { messages: [message("m3"), message("m2")], next_cursor: "c2" },
      c2: { messages: [message("m1")], next_cursor: null },
    };
    server.use(
      http.get(path, ({ request }) =>
        HttpResponse.json({
          request_id: "r",
          conversation_id: "conv_1",
          ...pages[new URL(request.url).searchParams.get("cursor") ?? ""],
        }),
      ),
    );
    const ids: string[] = [];
    for await (const m of testClient().conversations.messages.listAll("conv_1", { order: "desc" }))
      ids.push(m.message_id);
    expect(ids).toEqual(["m3", "m2", "m1"]);
    expect(requests.map(queryOf)).toEqual([
      { order: "desc", limit: "100" },
      { order: "desc", limit: "100", cursor: "c2" },
    ]);

    requests.length = 0;
    server.use(
      http.get(path, () =>
        HttpResponse.json({ request_id: "r", conversation_id: "conv_1", messages: [message("m1")] }),
      ),
    );
    const whole: string[] = [];
    for await (const m of testClient().conversations.messages.listAll("conv_1", { limit: 5 })) whole.push(m.message_id);
    expect(whole).toEqual(["m1"]);
    expect(requests).toHaveLength(1);
  });
});
