import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { ApiError, Client } from "../src/index";
import { BASE, envelope, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();

describe("errors", () => {
  it("maps the error envelope to ApiError: status, code, message, requestId", async () => {
    server.use(http.get(`${BASE}/v1/integrations/acme/teams/t1`, () => HttpResponse.json(envelope("forbidden", "This key lacks the embed:teams:read scope", "req_403"), { status: 403 })));
    const error = await testClient()
      .integration("acme")
      .teams.get("t1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "ApiError", status: 403, code: "forbidden", message: "This key lacks the embed:teams:read scope", requestId: "req_403" });
  });

  it("a body that is not the envelope (a proxy's page) still gives a code for its status and the X-Request-Id", async () => {
    server.use(http.get(`${BASE}/v1/me`, () => new HttpResponse("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway", headers: { "X-Request-Id": "req_proxy" } })));
    const error = await testClient({ retry: { maxRetries: 0 } })
      .me.get()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: "upstream_error", requestId: "req_proxy" });
    expect((error as Error).message).toContain("502");
  });

  it("sends the key as a bearer token, to the given base URL (a trailing slash tolerated)", async () => {
    server.use(http.get(`${BASE}/v1/sources`, () => HttpResponse.json({ request_id: "r" })));
    await new Client({ apiKey: "mga_live_secret", baseUrl: `${BASE}/` }).sources.list();
    expect(requests[0]!.url).toBe(`${BASE}/v1/sources`);
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer mga_live_secret");
  });

  it("refuses a client without a key or with a base URL that is not http(s)", () => {
    expect(() => new Client({ apiKey: "", baseUrl: BASE })).toThrow(/apiKey is required/);
    expect(() => new Client({ apiKey: "k", baseUrl: "api.example.com" })).toThrow(/baseUrl/);
  });
});
