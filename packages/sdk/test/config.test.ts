import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";

import { Client, MgaError } from "../src/index";
import { BASE, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

/** What `new Client(...)` threw. */
function constructionError(...args: ConstructorParameters<typeof Client>): unknown {
  try {
    new Client(...args);
  } catch (error) {
    return error;
  }
  throw new Error("the client was constructed");
}

describe("configuration", () => {
  it("takes the key and the base URL from MGA_API_KEY and MGA_BASE_URL when they are not passed", async () => {
    vi.stubEnv("MGA_API_KEY", "mga_env_key");
    vi.stubEnv("MGA_BASE_URL", BASE);
    server.use(http.get(`${BASE}/v1/sources`, () => HttpResponse.json({ request_id: "r" })));
    await new Client().sources.list();
    expect(requests[0]!.url).toBe(`${BASE}/v1/sources`);
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer mga_env_key");
  });

  it("prefers what is passed to the environment", async () => {
    vi.stubEnv("MGA_API_KEY", "mga_env_key");
    vi.stubEnv("MGA_BASE_URL", "http://elsewhere.test");
    server.use(http.get(`${BASE}/v1/sources`, () => HttpResponse.json({ request_id: "r" })));
    await new Client({ apiKey: "mga_passed_key", baseUrl: BASE }).sources.list();
    expect(requests[0]!.url).toBe(`${BASE}/v1/sources`);
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer mga_passed_key");
  });

  it("a missing key (neither passed nor in MGA_API_KEY, or empty) is an MgaError at construction saying what to set", () => {
    vi.stubEnv("MGA_BASE_URL", BASE);
    for (const key of [undefined, "", "  "]) {
      vi.stubEnv("MGA_API_KEY", key);
      const error = constructionError();
      expect(error).toBeInstanceOf(MgaError);
      expect(String(error)).toMatch(/^MgaError: apiKey is required: .*new Client\(\{ apiKey \}\).*MGA_API_KEY/);
    }
  });

  it("a missing base URL is an MgaError saying to set MGA_BASE_URL; a malformed one says what it must be", () => {
    vi.stubEnv("MGA_BASE_URL", undefined);
    expect(constructionError({ apiKey: "k" })).toBeInstanceOf(MgaError);
    expect(String(constructionError({ apiKey: "k" }))).toMatch(/baseUrl is required: .*MGA_BASE_URL/);
    expect(constructionError({ apiKey: "k", baseUrl: "api.example.com" })).toBeInstanceOf(MgaError);
  });

  it("reads no environment where there is no `process` (a bundle for another runtime): passed options still work", async () => {
    vi.stubGlobal("process", undefined);
    const withOptions = (() => new Client({ apiKey: "mga_passed_key", baseUrl: BASE }))();
    const withoutKey = constructionError({ baseUrl: BASE });
    vi.unstubAllGlobals();
    expect(withoutKey).toBeInstanceOf(MgaError);
    server.use(http.get(`${BASE}/v1/sources`, () => HttpResponse.json({ request_id: "r" })));
    await withOptions.sources.list();
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer mga_passed_key");
  });
});
