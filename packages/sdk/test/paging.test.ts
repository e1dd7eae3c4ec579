import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";

import { WaitTimeoutError } from "../src/index";
import { BASE, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();

const userNamed = (id: string) => ({ external_user_id: id });

describe("paging", () => {
  it("listAll walks next_cursor page by page with the same filters, and stops at null", async () => {
    const pages: Record<string, { users: object[]; next_cursor: string | null }> = {
      "": { users: [userNamed("a"), userNamed("b")], next_cursor: "c2" },
      c2: { users: [userNamed("c"), userNamed("d")], next_cursor: "c3" },
      c3: { users: [userNamed("e")], next_cursor: null },
    };
    server.use(
      http.get(`${BASE}/v1/integrations/acme/users`, ({ request }) => {
        const page = pages[new URL(request.url).searchParams.get("cursor") ?? ""]!;
        return HttpResponse.json({ request_id: "r", counts: {}, ...page });
      }),
    );
    const ids: string[] = [];
    for await (const user of testClient()
      .integration("acme")
      .users.listAll({ team_external_id: "loan-officers", limit: 2 }))
      ids.push(user.external_user_id);
    expect(ids).toEqual(["a", "b", "c", "d", "e"]);
    expect(requests.map((r) => Object.fromEntries(new URL(r.url).searchParams))).toEqual([
      { team_external_id: "loan-officers", limit: "2" },
      { team_external_id: "loan-officers", limit: "2", cursor: "c2" },
      { team_external_id: "loan-officers", limit: "2", cursor: "c3" },
    ]);
  });

  it("breaking out of the loop asks for no further page", async () => {
    server.use(
      http.get(`${BASE}/v1/integrations/acme/teams`, () =>
        HttpResponse.json({
          request_id: "r",
          teams: [{ external_team_id: "t1" }, { external_team_id: "t2" }],
          next_cursor: "more",
        }),
      ),
    );
    for await (const team of testClient().integration("acme").teams.listAll()) {
      expect(team.external_team_id).toBe("t1");
      break;
    }
    expect(requests).toHaveLength(1);
  });
});

describe("waitFor", () => {
  const operation = (status: string) => ({
    request_id: "r",
    operation: { operation_id: "op_1", type: "deletion", status, error_code: null },
  });

  it("polls an operation until a terminal status and returns it", async () => {
    let reads = 0;
    server.use(
      http.get(`${BASE}/v1/integrations/acme/user-operations/op_1`, () =>
        HttpResponse.json(operation(++reads < 3 ? "processing" : "completed")),
      ),
    );
    const done = await testClient().integration("acme").operations.waitFor("op_1", { intervalMs: 5 });
    expect(done.status).toBe("completed");
    expect(reads).toBe(3);
  });

  it("returns a failed import too: failed is terminal", async () => {
    server.use(
      http.get(`${BASE}/v1/integrations/acme/user-imports/job_1`, () =>
        HttpResponse.json({ request_id: "r", import: { job_id: "job_1", status: "failed" } }),
      ),
    );
    expect((await testClient().integration("acme").imports.waitFor("job_1")).status).toBe("failed");
  });

  it("throws WaitTimeoutError with the last record when the timeout passes first", async () => {
    server.use(
      http.get(`${BASE}/v1/integrations/acme/user-imports/job_2`, () =>
        HttpResponse.json({ request_id: "r", import: { job_id: "job_2", status: "processing" } }),
      ),
    );
    const error = await testClient()
      .integration("acme")
      // The deadline counts from before the first read, which a loaded CI machine has taken
      // longer than 150 ms to answer: a second leaves room for several reads.
      .imports.waitFor("job_2", { timeoutMs: 1_000, intervalMs: 20 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError<{ status: string }>).last.status).toBe("processing");
    expect((error as Error).message).toMatch(/Import job_2 is still processing/);
    expect(requests.length).toBeGreaterThan(1);
  });
});
