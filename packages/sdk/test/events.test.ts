import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";

import { BASE, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();

const event = (id: string) => ({
  id,
  type: "user.disabled",
  created_at: "2026-11-21T09:15:40.000Z",
  integration: "acme-los",
  data: { user: {} },
});

describe("events", () => {
  it("lists the organization's events page by page with the filters", async () => {
    server.use(
      http.get(`${BASE}/v1/events`, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get("cursor");
        return HttpResponse.json(
          cursor
            ? { request_id: "req_2", events: [event("evt_3")], next_cursor: null }
            : { request_id: "req_1", events: [event("evt_1"), event("evt_2")], next_cursor: "c1" },
        );
      }),
    );
    const ids: string[] = [];
    for await (const e of testClient().events.listAll({ type: "user.disabled", limit: 2 })) ids.push(e.id);
    expect(ids).toEqual(["evt_1", "evt_2", "evt_3"]);
    const urls = requests.map((r) => new URL(r.url));
    expect(urls.map((u) => Object.fromEntries(u.searchParams))).toEqual([
      { type: "user.disabled", limit: "2" },
      { type: "user.disabled", limit: "2", cursor: "c1" },
    ]);
  });
});
