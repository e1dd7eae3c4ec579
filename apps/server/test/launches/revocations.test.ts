import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getIntegration } from "@mga/core/partners/integrations";
import { createStaff } from "@mga/core/staff";

import { CHAT_PASSWORD, prepareLaunches } from "../support/hosted-chat";
import { ok, staffClient, type StaffSession } from "../support/staff-client";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * Revocations that stay revoked (issue 21, item 2): an operator who unbinds a launch key,
 * disables an integration or withdraws an alias grant, then undoes it from the console, gets
 * back working launches but none of the chat tokens or site-login grants issued before.
 */
let app: TestApp;
let operator: StaffSession;
const staff = staffClient(() => app.adminUrl);
beforeAll(async () => {
  app = await startTestApp();
  await createStaff(app.t.db, { email: "ops@mga.test", password: "operator password 1", role: "admin", actor: "test" });
  operator = await staff.signIn("ops@mga.test", "operator password 1");
});
afterAll(() => app.close());

type Launches = Awaited<ReturnType<typeof prepareLaunches>>;

const asOperator = async (procedure: string, input: Record<string, unknown>) =>
  ok(await staff.mutate(operator, procedure, input));
const integrationId = async (launches: Launches) =>
  (await getIntegration(app.t.db, launches.partner.organizationId, launches.partner.slug)).id;

/** A launch opened by the chat page: its sign-in session, and whether it asks for the site login. */
async function launch(launches: Launches) {
  const code = new URLSearchParams(new URL(await launches.launchUrl()).hash.slice(1)).get("code");
  const consumed = await app.request("/embed/api/launches/consume", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  expect(consumed.status, consumed.text).toBe(200);
  return {
    sessionToken: consumed.body.session_token as string,
    loginRequired: consumed.body.login_required as boolean,
  };
}

/** The site login in the popup, then the chat token the page collects. */
async function signIn(launches: Launches, sessionToken: string): Promise<string> {
  const login = await fetch(`${app.baseUrl}/site/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ session: sessionToken, email: launches.email, password: CHAT_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const session = await app.request("/embed/api/session", { headers: { Authorization: `Bearer ${sessionToken}` } });
  expect(session.body, session.text).toMatchObject({ status: "authorized" });
  return session.body.chat_token as string;
}

const chatStatus = async (chatToken: string) =>
  (await app.request("/embed/api/chat/check", { headers: { Authorization: `Bearer ${chatToken}` } })).status;

/** Launched, signed in (a 24-hour grant) and chatting. */
async function chatting(launches: Launches): Promise<string> {
  const { sessionToken, loginRequired } = await launch(launches);
  expect(loginRequired).toBe(true);
  const chatToken = await signIn(launches, sessionToken);
  expect(await chatStatus(chatToken)).toBe(200);
  return chatToken;
}

/**
 * Once the revocation is undone: the old token stays refused, a relaunch asks for the site login
 * again (the old grant is not reused), and then chats. Soft, so a revival reports each thing revived.
 */
async function expectNothingRevived(launches: Launches, oldChatToken: string) {
  expect.soft(await chatStatus(oldChatToken), "the chat token issued before").toBe(401);
  const relaunch = await launch(launches);
  expect.soft(relaunch.loginRequired, "a relaunch asks for the site login again").toBe(true);
  expect(await chatStatus(await signIn(launches, relaunch.sessionToken))).toBe(200);
  expect(await chatStatus(oldChatToken)).toBe(401);
}

describe("undoing a revocation revives nothing issued before it", () => {
  it("unbinding the launch key, then binding it again to the same name", async () => {
    const launches = await prepareLaunches(app);
    const chatToken = await chatting(launches);
    await asOperator("staff.keys.unbindLaunch", { id: launches.launcherId });
    expect(await chatStatus(chatToken)).toBe(401);
    await asOperator("staff.keys.bindLaunch", { id: launches.launcherId, integration: launches.publicName });
    await expectNothingRevived(launches, chatToken);
  });

  it("disabling the integration, then enabling it again", async () => {
    const launches = await prepareLaunches(app);
    const chatToken = await chatting(launches);
    const id = await integrationId(launches);
    await asOperator("staff.integrations.setStatus", { id, status: "disabled" });
    expect(await chatStatus(chatToken)).toBe(401);
    await asOperator("staff.integrations.setStatus", { id, status: "active" });
    await expectNothingRevived(launches, chatToken);
  });

  it("withdrawing the alias grant the key launches through, then granting it again", async () => {
    const launches = await prepareLaunches(app, { alias: "acme-public" });
    const chatToken = await chatting(launches);
    const id = await integrationId(launches);
    const grant = (granted: boolean) =>
      asOperator("staff.integrations.setAliasGrant", {
        id,
        alias: launches.publicName,
        key_id: launches.launcherId,
        granted,
      });
    await grant(false);
    expect(await chatStatus(chatToken)).toBe(401);
    await grant(true);
    await expectNothingRevived(launches, chatToken);
  });
});

describe("a key's lifecycle ends the sessions launched through it (issue 25)", () => {
  it("a roll that ends the old key now: its chat tokens are refused; the successor launches through the same alias at once", async () => {
    const launches = await prepareLaunches(app, { alias: "acme-public" });
    const chatToken = await chatting(launches);
    const rolled = await asOperator("staff.keys.roll", { id: launches.launcherId, old_key_expires_in_seconds: 0 });
    expect(rolled.key.launch_binding).toEqual({
      integration: "acme-public",
      canonical_integration: launches.partner.slug,
      enabled: true,
    });
    expect(await chatStatus(chatToken)).toBe(401);
    // The successor holds the alias grant and the binding: its launch works end to end.
    const res = await app.request("/v1/embed-sessions", {
      method: "POST",
      key: rolled.plaintext,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        integration: "acme-public",
        user: { external_user_id: "lo-1" },
        loan_context: { external_loan_id: "LN-2026-0042" },
      }),
    });
    expect(res.status, res.text).toBe(201);
    const code = new URLSearchParams(new URL(res.body.launch_url as string).hash.slice(1)).get("code");
    const consumed = await app.request("/embed/api/launches/consume", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code }),
    });
    expect(consumed.status, consumed.text).toBe(200);
    expect(await chatStatus(await signIn(launches, consumed.body.session_token as string))).toBe(200);
  });

  it("removing embed:launch from the key: its chat tokens are refused", async () => {
    const launches = await prepareLaunches(app);
    const chatToken = await chatting(launches);
    await asOperator("staff.keys.update", { id: launches.launcherId, scopes: ["embed:users:read"] });
    expect(await chatStatus(chatToken)).toBe(401);
  });
});
