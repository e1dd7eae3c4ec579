import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { embedSessionSchema } from "@mga/api";
import { hashSecret } from "@mga/core/ids";
import { bindLaunchKey, unbindLaunchKey } from "@mga/core/launches";
import { createIntegration, setAliasGrant } from "@mga/core/partners/integrations";

import { anotherKey, newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

/** POST /v1/embed-sessions (spec 4.8, 2.11, 2.12, section 5 item 6). */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const loan = {
  external_loan_id: "LN-2026-0042",
  program: "fha",
  purpose: "purchase",
  units: 1,
  property_state: "TX",
  application_date: "2026-11-02",
};

async function launchSetup(options: { aliases?: string[] } = {}) {
  const p = await newPartner(app, { slug: "acme-los", aliases: options.aliases });
  await p.put("/users/lo-1", { email: "lo1@acme.test" });
  const launcher = await anotherKey(app, p.organizationId, ["embed:launch"]);
  const launch = (body: unknown, key = launcher.key, headers: Record<string, string> = {}) =>
    app.request("/v1/embed-sessions", {
      method: "POST",
      key,
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  return { p, launcher, launch };
}

describe("POST /v1/embed-sessions", () => {
  describe("happy", () => {
    it("issues a single-use launch URL (201) for a bound key and an eligible user; the code is stored only as a hash", async () => {
      const { p, launcher, launch } = await launchSetup();
      await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: "acme-los" });
      const before = Date.now();
      const res = await launch({ integration: "acme-los", user: { external_user_id: "lo-1" }, loan_context: loan });
      expect(res.status).toBe(201);
      embedSessionSchema.parse(res.body);
      expect(Object.keys(res.body).sort()).toEqual(["expires_at", "launch_id", "launch_url", "request_id"]);
      const url = new URL(res.body.launch_url);
      expect(url.origin + url.pathname).toBe(`${app.baseUrl}/embed/partner/acme-los`);
      const code = new URLSearchParams(url.hash.slice(1)).get("code") as string;
      expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const expires = Date.parse(res.body.expires_at);
      expect(expires - before).toBeGreaterThanOrEqual(119_000);
      expect(expires - before).toBeLessThanOrEqual(121_000);
      const stored = await app.t.db.sql.query(
        "SELECT code_hash, loan_context, attribution, access_version FROM launches WHERE id = $1",
        [res.body.launch_id],
      );
      expect(stored.rows[0].code_hash).toBe(hashSecret(code));
      expect(JSON.stringify(stored.rows[0])).not.toContain(code);
      expect(stored.rows[0]).toMatchObject({
        loan_context: loan,
        attribution: { public_name: "acme-los", integration: "acme-los" },
        access_version: 1,
      });
      expect(p.slug).toBe("acme-los");
    });

    it("an alias binding (the alias granted to the key) authorizes that public name only, and the URL names the canonical integration", async () => {
      const { launcher, launch, p } = await launchSetup({ aliases: ["acme-public"] });
      await setAliasGrant(app.t.db, {
        organizationId: p.organizationId,
        alias: "acme-public",
        apiKeyId: launcher.id,
        granted: true,
      });
      await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: "acme-public" });
      const res = await launch({ integration: "acme-public", user: { external_user_id: "lo-1" }, loan_context: loan });
      expect(res.status).toBe(201);
      expect(new URL(res.body.launch_url).pathname).toBe("/embed/partner/acme-los");
      expectEnvelope(
        await launch({ integration: "acme-los", user: { external_user_id: "lo-1" }, loan_context: loan }),
        403,
        "forbidden",
      );
      expect(p.slug).toBe("acme-los");
    });

    it("an Idempotency-Key retry returns the same code and expiry", async () => {
      const { launcher, launch } = await launchSetup();
      await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: "acme-los" });
      const body = { integration: "acme-los", user: { external_user_id: "lo-1" }, loan_context: loan };
      const first = await launch(body, launcher.key, { "Idempotency-Key": "launch-lo-1-a" });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = await launch(body, launcher.key, { "Idempotency-Key": "launch-lo-1-a" });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      const other = await launch(body, launcher.key, { "Idempotency-Key": "launch-lo-1-b" });
      expect(other.body.launch_url).not.toBe(first.body.launch_url);
      // The replay keeps the live code, sealed: the database alone does not give it away.
      const code = new URLSearchParams(new URL(first.body.launch_url).hash.slice(1)).get("code") as string;
      const stored = await app.t.db.sql.query(
        "SELECT response_body::text AS body FROM idempotency_records WHERE key = 'launch-lo-1-a'",
      );
      expect(stored.rows[0].body).toMatch(/^"v1\./);
      expect(stored.rows[0].body).not.toContain(code);
      expect(
        (
          await app.t.db.sql.query("SELECT count(*)::int AS n FROM idempotency_records t WHERE t::text LIKE $1", [
            `%${code}%`,
          ])
        ).rows[0].n,
      ).toBe(0);
    });
  });

  describe("errors", () => {
    it("needs a provisioned, active, launch-eligible user (409 otherwise)", async () => {
      const { p, launcher, launch } = await launchSetup();
      await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: "acme-los" });
      const as = (id: string) =>
        launch({ integration: "acme-los", user: { external_user_id: id }, loan_context: loan });
      expect(expectEnvelope(await as("nobody"), 409, "identity_conflict").message).toMatch(/not provisioned/);
      await p.patch("/users/lo-1", { status: "disabled" });
      expect(expectEnvelope(await as("lo-1"), 409, "identity_conflict").message).toMatch(/disabled/);
    });

    it("rejects unknown properties, parent_origin/host_policy even when null, source labels, and bad loan fields, storing nothing", async () => {
      const { launcher, launch } = await launchSetup();
      await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: "acme-los" });
      const base = { integration: "acme-los", user: { external_user_id: "lo-1" }, loan_context: loan };
      const cases: Array<[unknown, string]> = [
        [{ ...base, parent_origin: "https://los.example" }, "parent_origin"],
        [{ ...base, parent_origin: null }, "parent_origin"],
        [{ ...base, host_policy: "" }, "host_policy"],
        [{ ...base, source: "encompass" }, "source"],
        [{ ...base, los_source: "x" }, "los_source"],
        [{ ...base, losSource: "x" }, "losSource"],
        [{ ...base, loan_context: { ...loan, borrower_name: "Pat" } }, "borrower_name"],
        [{ ...base, loan_context: { ...loan, external_loan_id: "pat@example.com" } }, "external_loan_id"],
        [{ ...base, loan_context: { ...loan, external_loan_id: "x".repeat(129) } }, "external_loan_id"],
        [{ ...base, loan_context: { ...loan, units: 5 } }, "units"],
        [{ ...base, loan_context: { ...loan, units: "2" } }, "units"],
        [{ ...base, loan_context: { ...loan, property_state: "tx" } }, "property_state"],
        [{ ...base, loan_context: { ...loan, program: "jumbo" } }, "program"],
        [{ ...base, loan_context: { ...loan, application_date: "11/02/2026" } }, "application_date"],
        [{ ...base, user: { external_user_id: "lo1@acme.test" } }, "external_user_id"],
        [{ ...base, user: { external_user_id: "lo-1", email: "x@y.z" } }, "email"],
        [{ integration: "acme-los", user: { external_user_id: "lo-1" } }, "loan_context"],
      ];
      const count = async () => (await app.t.db.sql.query("SELECT count(*)::int AS n FROM launches")).rows[0].n;
      const before = await count();
      for (const [body, field] of cases) {
        expect(
          expectEnvelope(await launch(body), 400, "invalid_request").message,
          JSON.stringify(body).slice(0, 100),
        ).toContain(field);
      }
      expect(await count()).toBe(before);
    });
  });

  describe("security", () => {
    it("refuses keys without a binding, unbound keys, other names and keys without embed:launch", async () => {
      const { p, launcher, launch } = await launchSetup();
      const body = { integration: "acme-los", user: { external_user_id: "lo-1" }, loan_context: loan };
      expectEnvelope(await launch(body), 403, "forbidden");
      await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: "acme-los" });
      expect((await launch(body)).status).toBe(201);
      await unbindLaunchKey(app.t.db, launcher.id);
      expectEnvelope(await launch(body), 403, "forbidden");
      expectEnvelope(await launch(body, p.key), 403, "forbidden");
      await expect(bindLaunchKey(app.t.db, { apiKeyId: p.keyId, publicName: "acme-los" })).rejects.toMatchObject({
        code: "invalid_request",
      });
    });

    it("one alias rule: a launch key is bound to an alias only once it is granted, and a launch through an alias whose grant was withdrawn is refused", async () => {
      const { p, launcher, launch } = await launchSetup({ aliases: ["acme-granted"] });
      const body = { integration: "acme-granted", user: { external_user_id: "lo-1" }, loan_context: loan };
      await expect(
        bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: "acme-granted" }),
      ).rejects.toMatchObject({
        code: "invalid_request",
        field: "integration",
        message: "the alias acme-granted is not granted to this key; grant it to the key first, then bind it",
      });
      expect(
        (
          await app.t.db.sql.query("SELECT count(*)::int AS n FROM launch_bindings WHERE api_key_id = $1", [
            launcher.id,
          ])
        ).rows[0].n,
      ).toBe(0);
      expectEnvelope(await launch(body), 403, "forbidden");
      await setAliasGrant(app.t.db, {
        organizationId: p.organizationId,
        alias: "acme-granted",
        apiKeyId: launcher.id,
        granted: true,
      });
      await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: "acme-granted" });
      expect((await launch(body)).status).toBe(201);
      // The binding stays, the grant goes: the alias no longer works for this key, launches included.
      await setAliasGrant(app.t.db, {
        organizationId: p.organizationId,
        alias: "acme-granted",
        apiKeyId: launcher.id,
        granted: false,
      });
      expect(expectEnvelope(await launch(body), 403, "forbidden").message).toBe(
        "integration acme-granted is not available to this key",
      );
    });

    it("alias grants for directory keys do not let a launch key launch without its binding", async () => {
      const { p, launcher, launch } = await launchSetup({ aliases: ["acme-other"] });
      await setAliasGrant(app.t.db, {
        organizationId: p.organizationId,
        alias: "acme-other",
        apiKeyId: launcher.id,
        granted: true,
      });
      expectEnvelope(
        await launch({ integration: "acme-other", user: { external_user_id: "lo-1" }, loan_context: loan }),
        403,
        "forbidden",
      );
      await createIntegration(app.t.db, { organizationId: p.organizationId, slug: "second-los" });
      await expect(bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: "nowhere" })).rejects.toMatchObject({
        code: "not_found",
      });
    });
  });
});
