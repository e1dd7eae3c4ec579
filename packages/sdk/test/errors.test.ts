import { inspect } from "node:util";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";

import { ApiConnectionError, ApiError, ApiTimeoutError, Client, MgaError, WaitTimeoutError } from "../src/index";
import { BASE, envelope, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();

describe("errors", () => {
  it("maps the error envelope to ApiError: status, code, message, requestId", async () => {
    server.use(
      http.get(`${BASE}/v1/integrations/acme/teams/t1`, () =>
        HttpResponse.json(envelope("forbidden", "This key lacks the embed:teams:read scope", "req_403"), {
          status: 403,
        }),
      ),
    );
    const error = await testClient()
      .integration("acme")
      .teams.get("t1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "ApiError",
      status: 403,
      code: "forbidden",
      message: "This key lacks the embed:teams:read scope",
      requestId: "req_403",
    });
  });

  it("a body that is not the envelope (a proxy's page) still gives a code for its status and the X-Request-Id", async () => {
    server.use(
      http.get(
        `${BASE}/v1/me`,
        () =>
          new HttpResponse("<html>Bad gateway</html>", {
            status: 502,
            statusText: "Bad Gateway",
            headers: { "X-Request-Id": "req_proxy" },
          }),
      ),
    );
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

describe("error classes", () => {
  const notFound = () =>
    new ApiError({ status: 404, code: "not_found", message: "No such conversation", requestId: "req_nf" });

  it("share one base, MgaError; a timeout is a connection error, as in OpenAI's SDK", () => {
    const timeout = new ApiTimeoutError({ method: "GET", url: `${BASE}/v1/me`, timeoutMs: 50 });
    expect(timeout).toBeInstanceOf(ApiTimeoutError);
    expect(timeout).toBeInstanceOf(ApiConnectionError);
    expect(timeout).toBeInstanceOf(MgaError);
    expect(timeout).toBeInstanceOf(Error);
    expect(timeout).not.toBeInstanceOf(ApiError);
    expect(notFound()).toBeInstanceOf(MgaError);
    expect(notFound()).not.toBeInstanceOf(ApiConnectionError);
    expect(new WaitTimeoutError("still processing", { status: "processing" })).toBeInstanceOf(MgaError);
    expect(new Error("x")).not.toBeInstanceOf(MgaError);
    expect([
      timeout.name,
      notFound().name,
      new ApiConnectionError({ method: "GET", url: BASE, cause: new TypeError("fetch failed") }).name,
    ]).toEqual(["ApiTimeoutError", "ApiError", "ApiConnectionError"]);
  });

  it("String(err) names the class, status, code, message and request id", () => {
    expect(String(notFound())).toBe("ApiError [404 not_found]: No such conversation (request_id req_nf)");
    const limited = new ApiError({
      status: 429,
      code: "rate_limited",
      message: "Slow down",
      requestId: "req_rl",
      retryAfterSeconds: 27,
    });
    expect(String(limited)).toBe("ApiError [429 rate_limited]: Slow down (request_id req_rl, retry after 27 s)");
  });

  it("util.inspect (console.log) starts with the same line, then the stack and the fields", () => {
    const shown = inspect(notFound());
    expect(shown.split("\n")[0]).toBe("ApiError [404 not_found]: No such conversation (request_id req_nf)");
    expect(shown).toMatch(/\n {4}at /);
    expect(shown).toContain("requestId: 'req_nf'");
    const lost = inspect(
      new ApiConnectionError({ method: "POST", url: `${BASE}/v1/messages`, cause: new TypeError("fetch failed") }),
    );
    expect(lost.split("\n")[0]).toMatch(/^ApiConnectionError: .*POST http:\/\/api\.test\/v1\/messages/);
    expect(lost).toContain("[cause]: TypeError: fetch failed");
  });

  it("instanceof holds across two copies of the package (its ESM and CommonJS builds loaded side by side)", async () => {
    vi.resetModules();
    const other = await import("../src/index");
    expect(other.ApiError).not.toBe(ApiError);
    const error = new other.ApiTimeoutError({ method: "GET", url: BASE, timeoutMs: 1 });
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toBeInstanceOf(MgaError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(notFound()).toBeInstanceOf(other.ApiError);
    expect(notFound()).not.toBeInstanceOf(other.ApiConnectionError);
  });

  it("a subclass of a partner's own is checked as usual, not by the SDK's brand", () => {
    class Quota extends ApiError {}
    expect(notFound()).not.toBeInstanceOf(Quota);
    expect(new Quota({ status: 429, code: "rate_limited", message: "q" })).toBeInstanceOf(ApiError);
  });
});
