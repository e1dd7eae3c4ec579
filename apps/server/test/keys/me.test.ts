import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getMeOutput } from "@mga/api";
import { revokeApiKey } from "@mga/core/keys";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("GET /v1/me", () => {
  describe("happy", () => {
    it("returns the key record with tenant and client, by Bearer and by X-API-Key", async () => {
      const { key, id } = await app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read"] });
      for (const via of ["bearer", "x-api-key"] as const) {
        const res = await app.request("/v1/me", { key, via });
        expect(res.status).toBe(200);
        expect(getMeOutput.parse(res.body)).toBeTruthy();
        expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
        expect(res.body.key).toEqual({
          id,
          name: "test key",
          status: "active",
          scopes: ["chat:read"],
          last_four: key.slice(-4),
          tenant: ACME_TENANT,
          client: { name: "Acme Lending", organization: "Acme Lending Corp." },
        });
      }
    });

    it("gives every request its own request_id", async () => {
      const { key } = await app.newKey();
      const [a, b] = await Promise.all([app.request("/v1/me", { key }), app.request("/v1/me", { key })]);
      expect(a.body.request_id).toMatch(/^req_/);
      expect(a.body.request_id).not.toBe(b.body.request_id);
    });

    it("falls back to the organization name as client when no tenant is configured", async () => {
      const { key } = await app.newKey();
      const res = await app.request("/v1/me", { key });
      expect(res.body.key.client).toEqual({ name: "Test Lender" });
      expect(res.body.key.tenant).toEqual({ clientName: "Test Lender", enabledSources: [], baseSources: [] });
    });
  });

  describe("errors", () => {
    it("rejects unknown query parameters with 400 naming them", async () => {
      const { key } = await app.newKey();
      const error = expectEnvelope(await app.request("/v1/me?verbose=1", { key }), 400, "invalid_request");
      expect(error.message).toContain("verbose");
    });
  });

  describe("security", () => {
    it("needs no particular scope (the spec lists no 403 for it)", async () => {
      const { key } = await app.newKey({ scopes: ["embed:launch"] });
      expect((await app.request("/v1/me", { key })).status).toBe(200);
    });

    it("answers 401 for a missing, malformed, unknown or revoked key", async () => {
      const { key, id } = await app.newKey();
      expectEnvelope(await app.request("/v1/me"), 401, "unauthorized");
      expectEnvelope(await app.request("/v1/me", { key: "not-a-key" }), 401, "unauthorized");
      expectEnvelope(await app.request("/v1/me", { headers: { Authorization: "Basic abc" } }), 401, "unauthorized");
      const unknown = `${key.slice(0, -10)}${"A".repeat(10)}`;
      expectEnvelope(await app.request("/v1/me", { key: unknown }), 401, "unauthorized");
      await revokeApiKey(app.t.db, id);
      const revoked = expectEnvelope(await app.request("/v1/me", { key }), 401, "unauthorized");
      expect(revoked.message).toMatch(/revoked/);
    });

    it("never logs the key", async () => {
      const { key } = await app.newKey();
      await app.request("/v1/me", { key });
      await app.request("/v1/me", { key: `${key}x` });
      expect(app.logs.join("\n")).not.toContain(key.slice(7));
    });
  });
});
