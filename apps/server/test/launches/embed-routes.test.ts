import { bindLaunchKey, completeSiteLogin } from "@mga/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anotherKey, newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

/** The hosted chat's browser routes over HTTP: consume, session poll, and the retired route. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function issue() {
  const p = await newPartner(app);
  await p.put("/users/lo-1", { email: `lo1-${p.organizationId}@acme.test` });
  const launcher = await anotherKey(app, p.organizationId, ["embed:launch"]);
  await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: p.slug });
  const res = await app.request("/v1/embed-sessions", {
    method: "POST",
    key: launcher.key,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ integration: p.slug, user: { external_user_id: "lo-1" }, loan_context: { external_loan_id: "LN-9" } }),
  });
  const code = new URLSearchParams(new URL(res.body.launch_url).hash.slice(1)).get("code") as string;
  const siteAccountId = (await app.t.db.pool.query("SELECT site_account_id FROM partner_users WHERE email = lower($1)", [`lo1-${p.organizationId}@acme.test`])).rows[0].site_account_id;
  return { code, siteAccountId };
}

const consume = (code: unknown) => app.request("/embed/api/launches/consume", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }) });

describe("hosted chat routes", () => {
  it("consumes a code once, then polls the session until the login yields the chat token", async () => {
    const { code, siteAccountId } = await issue();
    const consumed = await consume(code);
    expect(consumed.status).toBe(200);
    expect(consumed.body).toMatchObject({ login_required: true, session_token: expect.any(String), request_id: consumed.headers.get("x-request-id") });
    expect(consumed.headers.get("cache-control")).toBe("no-store");
    expectEnvelope(await consume(code), 401, "unauthorized");

    const poll = () => app.request("/embed/api/session", { headers: { Authorization: `Bearer ${consumed.body.session_token}` } });
    expect((await poll()).body).toMatchObject({ status: "login_pending" });
    await completeSiteLogin(app.t.db, { sessionToken: consumed.body.session_token, siteAccountId });
    const authorized = await poll();
    expect(authorized.body).toMatchObject({ status: "authorized", chat_token: expect.any(String), expires_at: expect.any(String) });
    expectEnvelope(await poll(), 401, "unauthorized");
  });

  it("answers bad input and missing tokens in the envelope", async () => {
    expectEnvelope(await consume(42), 400, "invalid_request");
    expectEnvelope(await consume("nope"), 401, "unauthorized");
    expectEnvelope(await app.request("/embed/api/session"), 401, "unauthorized");
    expectEnvelope(await app.request("/embed/api/session", { headers: { Authorization: "Bearer nope" } }), 401, "unauthorized");
  });

  it("the retired origin-bound browser route answers 410 Gone, never a redirect", async () => {
    for (const path of ["/embed/launch", "/embed/launch/acme-los?origin=https%3A%2F%2Flos.example"]) {
      const res = await app.request(path, { redirect: "manual" });
      expect(res.status).toBe(410);
      expect(res.headers.get("location")).toBeNull();
      expect(res.body.error).toMatchObject({ code: "not_found", message: expect.stringContaining("retired") });
    }
  });
});
