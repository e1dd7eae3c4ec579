import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("transport errors use the envelope", () => {
  it("404 for an unknown route, inside and outside /v1", async () => {
    const { key } = await app.newKey();
    expectEnvelope(await app.request("/v1/nothing-here", { key }), 404, "not_found");
    expectEnvelope(await app.request("/elsewhere"), 404, "not_found");
  });

  it("400 for malformed JSON and 413 for an oversized body, before routing", async () => {
    const { key } = await app.newKey();
    const json = { "Content-Type": "application/json; charset=utf-8" };
    expectEnvelope(
      await app.request("/v1/messages", { method: "POST", key, headers: json, body: "{oops" }),
      400,
      "invalid_request",
    );
    const big = JSON.stringify({ message: "x".repeat(1024 * 1024 + 10) });
    expectEnvelope(
      await app.request("/v1/messages", { method: "POST", key, headers: json, body: big }),
      413,
      "invalid_request",
    );
  });

  it("405 with Allow for a method the path does not answer, before its body is read", async () => {
    const { key } = await app.newKey();
    const refused = await app.request("/v1/me", {
      method: "POST",
      key,
      headers: { "Content-Type": "application/json" },
      body: "{oops",
    });
    expect(expectEnvelope(refused, 405, "invalid_request").message).toBe(
      "POST is not allowed on this path; it answers GET, HEAD",
    );
    expect(refused.headers.get("allow")).toBe("GET, HEAD");
  });

  it("every response, on both listeners, forbids content sniffing", async () => {
    const { key } = await app.newKey();
    const responses = [
      await app.request("/healthz"),
      await app.request("/v1/me", { key }),
      await app.request("/v1/nothing-here"),
      await app.request("/v1/openapi.json"),
      await app.request("/site/login"),
      await app.request("/embed/partner/acme-los"),
      await app.request("/embed/assets/chat.js"),
      { headers: (await fetch(`${app.adminUrl}/trpc/system.status`)).headers },
    ];
    for (const res of responses) expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    // Pages that are not the hosted chat can never be framed.
    expect((await app.request("/site/login")).headers.get("x-frame-options")).toBe("DENY");
  });

  it("echoes the request id as a header on every response", async () => {
    const res = await app.request("/healthz");
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9A-Za-z]{22}$/);
    expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
  });

  it("a crash inside a procedure is a 500 internal_error with a fixed message, logged with its request id", async () => {
    const { key } = await app.newKey({ scopes: ["sources:read"] });
    // Corrupt the stored tenant configuration so that building the catalog throws.
    await app.t.db.sql.query(`INSERT INTO tenant_configurations (organization_id, config, updated_at)
      SELECT organization_id, '{"clientName": "x", "enabledSources": 5}'::jsonb, now() FROM api_keys WHERE secret_hash IS NOT NULL
      ON CONFLICT (organization_id) DO UPDATE SET config = EXCLUDED.config`);
    const res = await app.request("/v1/sources", { key });
    const error = expectEnvelope(res, 500, "internal_error");
    expect(error.message).toBe("internal error");
    expect(app.logs.some((line) => line.includes(error.request_id) && line.includes('"level":"error"'))).toBe(true);
  });
});
