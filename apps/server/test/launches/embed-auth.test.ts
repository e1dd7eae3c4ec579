import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  bindLaunchKey,
  completeSiteLogin,
  consumeLaunchCode,
  exchangeSessionForChatToken,
  unbindLaunchKey,
  verifyChatToken,
} from "@mga/core/launches";
import { updateIntegration } from "@mga/core/partners/integrations";

import { anotherKey, newPartner } from "../support/partners";
import { startTestApp, type TestApp } from "../support/test-app";

/** Spec 3.6 timers and revocation, with a controllable clock (no sleeps). */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function setup() {
  const p = await newPartner(app);
  await p.put("/users/lo-1", { email: `lo1-${p.organizationId}@acme.test` });
  const launcher = await anotherKey(app, p.organizationId, ["embed:launch"]);
  await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: p.slug });
  const siteAccountId = (
    await app.t.db.sql.query(
      "SELECT site_account_id FROM partner_users WHERE integration_id = (SELECT id FROM integrations WHERE organization_id = $1) AND external_user_id = 'lo-1'",
      [p.organizationId],
    )
  ).rows[0].site_account_id as string;
  const launch = async () => {
    const res = await app.request("/v1/embed-sessions", {
      method: "POST",
      key: launcher.key,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        integration: p.slug,
        user: { external_user_id: "lo-1" },
        loan_context: { external_loan_id: "LN-1" },
      }),
    });
    expect(res.status).toBe(201);
    return new URLSearchParams(new URL(res.body.launch_url).hash.slice(1)).get("code") as string;
  };
  return { p, launcher, siteAccountId, launch };
}

const at = (base: number, offset: number) => () => new Date(base + offset);

describe("launch code, sign-in session, grant and chat token", () => {
  it("a code is consumed once, within two minutes", async () => {
    const { launch } = await setup();
    const t0 = Date.now();
    const code = await launch();
    const first = await consumeLaunchCode(app.t.db, code, at(t0, 30_000));
    expect(first).toMatchObject({ loginRequired: true });
    expect(first.expiresAt.getTime() - (t0 + 30_000)).toBe(10 * MINUTE);
    await expect(consumeLaunchCode(app.t.db, code, at(t0, 40_000))).rejects.toMatchObject({ code: "unauthorized" });
    const late = await launch();
    await expect(consumeLaunchCode(app.t.db, late, at(Date.now(), 121_000))).rejects.toMatchObject({
      code: "unauthorized",
    });
    await expect(consumeLaunchCode(app.t.db, "not-a-code")).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("the site login must happen within the ten-minute session, with the user's own account", async () => {
    const { launch, siteAccountId } = await setup();
    const t0 = Date.now();
    const session = await consumeLaunchCode(app.t.db, await launch(), at(t0, 0));
    await expect(
      completeSiteLogin(
        app.t.db,
        { sessionToken: session.sessionToken, siteAccountId: "sa_someone_else" },
        at(t0, MINUTE),
      ),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      completeSiteLogin(app.t.db, { sessionToken: session.sessionToken, siteAccountId }, at(t0, 11 * MINUTE)),
    ).rejects.toMatchObject({ code: "unauthorized" });
    expect(await exchangeSessionForChatToken(app.t.db, session.sessionToken, at(t0, 2 * MINUTE))).toEqual({
      status: "login_pending",
    });
  });

  it("login → 24-hour grant → one chat token (8 hours), never refreshed; a same-day relaunch skips the login", async () => {
    const { launch, siteAccountId } = await setup();
    const t0 = Date.now();
    const session = await consumeLaunchCode(app.t.db, await launch(), at(t0, 0));
    const { grantExpiresAt } = await completeSiteLogin(
      app.t.db,
      { sessionToken: session.sessionToken, siteAccountId },
      at(t0, MINUTE),
    );
    expect(grantExpiresAt.getTime()).toBe(t0 + MINUTE + 24 * HOUR);
    const token = await exchangeSessionForChatToken(app.t.db, session.sessionToken, at(t0, 2 * MINUTE));
    if (token.status !== "authorized") throw new Error("expected a token");
    expect(token.expiresAt.getTime()).toBe(t0 + 2 * MINUTE + 8 * HOUR);
    await expect(exchangeSessionForChatToken(app.t.db, session.sessionToken, at(t0, 3 * MINUTE))).rejects.toMatchObject(
      { code: "unauthorized" },
    );
    expect((await verifyChatToken(app.t.db, token.chatToken, at(t0, 7 * HOUR))).loanContext).toEqual({
      external_loan_id: "LN-1",
    });
    await expect(verifyChatToken(app.t.db, token.chatToken, at(t0, 2 * MINUTE + 8 * HOUR))).rejects.toMatchObject({
      code: "unauthorized",
    });

    // A relaunch 20 hours into the grant (the grant is moved back, since launches are issued
    // on the real clock): no login, and the token ends with the grant, four hours later.
    await app.t.db.sql.query(
      "UPDATE chat_grants SET created_at = created_at - interval '20 hours', expires_at = expires_at - interval '20 hours' WHERE expires_at = $1",
      [grantExpiresAt],
    );
    const now = Date.now();
    const relaunch = await consumeLaunchCode(app.t.db, await launch(), at(now, 0));
    expect(relaunch.loginRequired).toBe(false);
    const later = await exchangeSessionForChatToken(app.t.db, relaunch.sessionToken, at(now, MINUTE));
    if (later.status !== "authorized") throw new Error("expected a token");
    expect(later.expiresAt.getTime()).toBe(grantExpiresAt.getTime() - 20 * HOUR);
    // Once the grant has ended, a relaunch needs the login again.
    await app.t.db.sql.query("UPDATE chat_grants SET expires_at = now() - interval '1 second' WHERE expires_at = $1", [
      new Date(grantExpiresAt.getTime() - 20 * HOUR),
    ]);
    expect((await consumeLaunchCode(app.t.db, await launch())).loginRequired).toBe(true);
  });
});

describe("revocation takes effect at once", () => {
  async function chatting() {
    const s = await setup();
    const session = await consumeLaunchCode(app.t.db, await s.launch());
    await completeSiteLogin(app.t.db, { sessionToken: session.sessionToken, siteAccountId: s.siteAccountId });
    const token = await exchangeSessionForChatToken(app.t.db, session.sessionToken);
    if (token.status !== "authorized") throw new Error("expected a token");
    await verifyChatToken(app.t.db, token.chatToken);
    return { ...s, chatToken: token.chatToken };
  }

  it("disabling the user ends the chat token; reactivation does not restore it, and a relaunch needs a new login", async () => {
    const { p, chatToken, launch } = await chatting();
    await p.patch("/users/lo-1", { status: "disabled" });
    await expect(verifyChatToken(app.t.db, chatToken)).rejects.toMatchObject({ code: "unauthorized" });
    await p.patch("/users/lo-1", { status: "active" });
    await expect(verifyChatToken(app.t.db, chatToken)).rejects.toMatchObject({ code: "unauthorized" });
    expect((await consumeLaunchCode(app.t.db, await launch())).loginRequired).toBe(true);
  });

  it("unbinding the launch key or disabling the integration ends the chat token", async () => {
    const one = await chatting();
    await unbindLaunchKey(app.t.db, one.launcher.id);
    await expect(verifyChatToken(app.t.db, one.chatToken)).rejects.toMatchObject({ code: "unauthorized" });
    const two = await chatting();
    await updateIntegration(app.t.db, { organizationId: two.p.organizationId, slug: two.p.slug, status: "disabled" });
    await expect(verifyChatToken(app.t.db, two.chatToken)).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("a deletion ends it at once (before the asynchronous work completes)", async () => {
    const { p, chatToken } = await chatting();
    const res = await app.request(`${p.base}/users/lo-1/deletions`, {
      method: "POST",
      key: p.key,
      headers: { "Content-Type": "application/json", "Idempotency-Key": "del-chat" },
      body: "{}",
    });
    expect(res.status).toBe(202);
    await expect(verifyChatToken(app.t.db, chatToken)).rejects.toMatchObject({ code: "unauthorized" });
  });
});
