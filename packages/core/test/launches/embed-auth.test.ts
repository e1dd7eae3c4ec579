import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  AUTH_SESSION_SECONDS,
  CHAT_TOKEN_HOURS,
  completeSiteLogin,
  consumeLaunchCode,
  exchangeSessionForChatToken,
  GRANT_HOURS,
  verifyChatToken,
} from "../../src/launches/embed-auth";
import { bindLaunchKey } from "../../src/launches/launch-bindings";
import { LAUNCH_CODE_SECONDS } from "../../src/launches/launches";
import { setAliasGrant } from "../../src/partners/integrations/integrations";
import { requestDeletion } from "../../src/partners/operations/index";
import { setPartnerUserStatus } from "../../src/partners/users/index";
import { openFixtures, refusal, type Fixtures } from "../support/fixtures";

/** After issue (spec 3.6): code → sign-in session → 24-hour grant → one chat token, each step re-checking the launch. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const at = (time: number) => () => new Date(time);

/** A user of a fresh integration with a bound launch key, and a way to launch them. */
async function launching() {
  const integration = await f.integration();
  const user = await f.user({ integration });
  const key = await f.launchKey({ integration });
  const siteAccountId = (await f.siteAccountOf(integration, user.externalUserId)) as string;
  const launch = async () => (await f.launch({ key, integration, externalUserId: user.externalUserId })).code;
  return { integration, user, key, siteAccountId, launch };
}

/** Launched, signed in and holding a chat token. */
async function chatting() {
  const s = await launching();
  const session = await consumeLaunchCode(f.db, await s.launch());
  await completeSiteLogin(f.db, { sessionToken: session.sessionToken, siteAccountId: s.siteAccountId });
  const token = await exchangeSessionForChatToken(f.db, session.sessionToken);
  if (token.status !== "authorized") throw new Error("expected a chat token");
  return { ...s, chatToken: token.chatToken };
}

describe("the launch code", () => {
  it("is consumed once, and only within two minutes", async () => {
    const { launch } = await launching();
    const t0 = Date.now();
    const code = await launch();
    const session = await consumeLaunchCode(f.db, code, at(t0 + 30 * SECOND));
    expect(session).toMatchObject({
      loginRequired: true,
      expiresAt: new Date(t0 + 30 * SECOND + AUTH_SESSION_SECONDS * SECOND),
    });
    expect(await refusal(consumeLaunchCode(f.db, code, at(t0 + 31 * SECOND)))).toBe("unauthorized");
    const late = await launch();
    expect(await refusal(consumeLaunchCode(f.db, late, at(Date.now() + (LAUNCH_CODE_SECONDS + 1) * SECOND)))).toBe(
      "unauthorized",
    );
    expect(await refusal(consumeLaunchCode(f.db, "never-issued"))).toBe("unauthorized");
  });

  it("of a user disabled since the launch is refused", async () => {
    const { integration, user, launch } = await launching();
    const code = await launch();
    await setPartnerUserStatus(f.deps, integration, user.externalUserId, "disabled");
    expect(await refusal(consumeLaunchCode(f.db, code))).toBe("unauthorized");
  });
});

describe("the sign-in session, grant and chat token", () => {
  it("the site login must be the user's own account, within the ten-minute session", async () => {
    const { launch, siteAccountId } = await launching();
    const other = await launching();
    const t0 = Date.now();
    const session = await consumeLaunchCode(f.db, await launch(), at(t0));
    expect(
      await refusal(
        completeSiteLogin(
          f.db,
          { sessionToken: session.sessionToken, siteAccountId: other.siteAccountId },
          at(t0 + 60 * SECOND),
        ),
      ),
    ).toBe("forbidden");
    expect(
      await refusal(
        completeSiteLogin(
          f.db,
          { sessionToken: session.sessionToken, siteAccountId },
          at(t0 + (AUTH_SESSION_SECONDS + 1) * SECOND),
        ),
      ),
    ).toBe("unauthorized");
    expect(await exchangeSessionForChatToken(f.db, session.sessionToken, at(t0 + 120 * SECOND))).toEqual({
      status: "login_pending",
    });
  });

  it("a login gives a 24-hour grant and one 8-hour chat token, never a second; a relaunch within the grant skips the login", async () => {
    const { launch, siteAccountId } = await launching();
    const t0 = Date.now();
    const session = await consumeLaunchCode(f.db, await launch(), at(t0));
    const { grantExpiresAt } = await completeSiteLogin(
      f.db,
      { sessionToken: session.sessionToken, siteAccountId },
      at(t0 + 60 * SECOND),
    );
    expect(grantExpiresAt).toEqual(new Date(t0 + 60 * SECOND + GRANT_HOURS * HOUR));
    const token = await exchangeSessionForChatToken(f.db, session.sessionToken, at(t0 + 120 * SECOND));
    if (token.status !== "authorized") throw new Error("expected a chat token");
    expect(token.expiresAt).toEqual(new Date(t0 + 120 * SECOND + CHAT_TOKEN_HOURS * HOUR));
    expect(await refusal(exchangeSessionForChatToken(f.db, session.sessionToken, at(t0 + 180 * SECOND)))).toBe(
      "unauthorized",
    );
    expect((await verifyChatToken(f.db, token.chatToken, at(t0 + 7 * HOUR))).loanContext).toEqual({
      external_loan_id: "LN-1",
    });
    expect(await refusal(verifyChatToken(f.db, token.chatToken, at(t0 + 120 * SECOND + CHAT_TOKEN_HOURS * HOUR)))).toBe(
      "unauthorized",
    );

    const relaunch = await consumeLaunchCode(f.db, await launch());
    expect(relaunch.loginRequired).toBe(false);
    expect((await exchangeSessionForChatToken(f.db, relaunch.sessionToken)).status).toBe("authorized");
  });
});

describe("revocation ends the chat at once", () => {
  it("disabling the user; reactivating does not restore the token, and a relaunch needs a new login", async () => {
    const { integration, user, chatToken, launch } = await chatting();
    await setPartnerUserStatus(f.deps, integration, user.externalUserId, "disabled");
    expect(await refusal(verifyChatToken(f.db, chatToken))).toBe("unauthorized");
    await setPartnerUserStatus(f.deps, integration, user.externalUserId, "active");
    expect(await refusal(verifyChatToken(f.db, chatToken))).toBe("unauthorized");
    expect((await consumeLaunchCode(f.db, await launch())).loginRequired).toBe(true);
  });

  it("a deletion request, before its worker has run", async () => {
    const { integration, user, chatToken } = await chatting();
    await requestDeletion(f.deps, integration, user.externalUserId, {});
    expect(await refusal(verifyChatToken(f.db, chatToken))).toBe("unauthorized");
  });

  it("withdrawing the alias grant a launch went through", async () => {
    const integration = await f.integration({ aliases: ["via-alias"] });
    const user = await f.user({ integration });
    const key = await f.apiKey({ org: { id: integration.organizationId }, scopes: ["embed:launch"] });
    const grant = (granted: boolean) =>
      setAliasGrant(f.db, {
        organizationId: integration.organizationId,
        alias: "via-alias",
        apiKeyId: key.id,
        granted,
      });
    await grant(true);
    await bindLaunchKey(f.db, { apiKeyId: key.id, publicName: "via-alias" });
    const { code } = await f.launch({ key, integration, externalUserId: user.externalUserId, publicName: "via-alias" });
    const session = await consumeLaunchCode(f.db, code);
    await grant(false);
    expect(await refusal(exchangeSessionForChatToken(f.db, session.sessionToken))).toBe("unauthorized");
  });
});
