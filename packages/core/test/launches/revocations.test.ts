import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "../../src/db/database";
import {
  completeSiteLogin,
  consumeLaunchCode,
  exchangeSessionForChatToken,
  verifyChatToken,
} from "../../src/launches/embed-auth";
import { bindLaunchKey, unbindLaunchKey } from "../../src/launches/launch-bindings";
import { issueLaunch } from "../../src/launches/launches";
import { setAliasGrant, updateIntegration } from "../../src/partners/integrations/integrations";
import { openFixtures, refusal, type Fixtures } from "../support/fixtures";

/**
 * Revocations that stay revoked (issue 21, item 2): the binding's version and the integration's
 * access_version, snapshotted by each launch and recorded in each grant. The HTTP scenarios of
 * each undone revocation are in apps/server/test/launches/revocations.test.ts.
 */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

/** A user of a fresh integration and a launch key bound to its slug, or to `alias` granted to the key. */
async function launching(alias?: string) {
  const integration = await f.integration(alias ? { aliases: [alias] } : {});
  const user = await f.user({ integration });
  const publicName = alias ?? integration.slug;
  const key = await f.apiKey({ org: { id: integration.organizationId }, scopes: ["embed:launch"] });
  const grant = (granted: boolean) =>
    setAliasGrant(f.db, { organizationId: integration.organizationId, alias: publicName, apiKeyId: key.id, granted });
  if (alias) await grant(true);
  await bindLaunchKey(f.db, { apiKeyId: key.id, publicName });
  const siteAccountId = (await f.siteAccountOf(integration, user.externalUserId)) as string;
  const launch = async (db: Database = f.db, launchKey = key) => {
    const issued = await issueLaunch(db, {
      key: launchKey,
      publicName,
      externalUserId: user.externalUserId,
      loanContext: { external_loan_id: "LN-1" },
      appUrl: "https://chat.example.test",
    });
    return new URLSearchParams(new URL(issued.launchUrl).hash.slice(1)).get("code") as string;
  };
  return { integration, user, key, publicName, grant, siteAccountId, launch };
}

type Launching = Awaited<ReturnType<typeof launching>>;

/** Launched, signed in (a grant) and holding a chat token. */
async function chatting(s: Launching, launchKey = s.key) {
  const session = await consumeLaunchCode(f.db, await s.launch(f.db, launchKey));
  expect(session.loginRequired).toBe(true);
  await completeSiteLogin(f.db, { sessionToken: session.sessionToken, siteAccountId: s.siteAccountId });
  const token = await exchangeSessionForChatToken(f.db, session.sessionToken);
  if (token.status !== "authorized") throw new Error("expected a chat token");
  return token.chatToken;
}

/** A handle on the test database that runs `meanwhile` just before a launch is written: changes committed between the launch's reads and its write. */
function racing(meanwhile: () => Promise<unknown>): Database {
  let raced = false;
  const query = (async (text: string, params?: unknown[]) => {
    if (!raced && text.trimStart().startsWith("INSERT INTO launches")) {
      raced = true;
      await meanwhile();
    }
    return f.db.sql.query(text, params);
  }) as Database["sql"]["query"];
  return { ...f.db, sql: { query } };
}

const revocations: Array<{
  name: string;
  alias?: string;
  revoke(s: Launching): Promise<unknown>;
  undo(s: Launching): Promise<unknown>;
}> = [
  {
    name: "unbinding the key, then binding it again",
    revoke: (s) => unbindLaunchKey(f.db, s.key.id),
    undo: (s) => bindLaunchKey(f.db, { apiKeyId: s.key.id, publicName: s.publicName }),
  },
  {
    name: "disabling the integration, then enabling it",
    revoke: (s) =>
      updateIntegration(f.db, {
        organizationId: s.integration.organizationId,
        slug: s.integration.slug,
        status: "disabled",
      }),
    undo: (s) =>
      updateIntegration(f.db, {
        organizationId: s.integration.organizationId,
        slug: s.integration.slug,
        status: "active",
      }),
  },
  {
    name: "withdrawing the alias grant, then granting it again",
    alias: "brand-x",
    revoke: (s) => s.grant(false),
    undo: (s) => s.grant(true),
  },
];

describe("a launch racing a revocation", () => {
  it.each(revocations)(
    "$name, both committed between the launch's reads and its write, leaves the launch dead",
    async ({ alias, revoke, undo }) => {
      const s = await launching(alias);
      const code = await s.launch(
        racing(async () => {
          await revoke(s);
          await undo(s);
        }),
      );
      expect(await refusal(consumeLaunchCode(f.db, code))).toBe("unauthorized");
      expect((await consumeLaunchCode(f.db, await s.launch())).loginRequired).toBe(true);
    },
  );
});

describe("changes that end what was issued before", () => {
  it("binding the key again to its name ends nothing; to another name and back ends its tokens and grants", async () => {
    const s = await launching();
    const chatToken = await chatting(s);
    await bindLaunchKey(f.db, { apiKeyId: s.key.id, publicName: s.integration.slug });
    await verifyChatToken(f.db, chatToken);
    expect((await consumeLaunchCode(f.db, await s.launch())).loginRequired).toBe(false);

    await updateIntegration(f.db, {
      organizationId: s.integration.organizationId,
      slug: s.integration.slug,
      addAliases: ["elsewhere"],
    });
    await setAliasGrant(f.db, {
      organizationId: s.integration.organizationId,
      alias: "elsewhere",
      apiKeyId: s.key.id,
      granted: true,
    });
    await bindLaunchKey(f.db, { apiKeyId: s.key.id, publicName: "elsewhere" });
    await bindLaunchKey(f.db, { apiKeyId: s.key.id, publicName: s.integration.slug });
    expect(await refusal(verifyChatToken(f.db, chatToken))).toBe("unauthorized");
    expect((await consumeLaunchCode(f.db, await s.launch())).loginRequired).toBe(true);
  });

  it("removing the alias a key launches through, then adding it back and granting it again", async () => {
    const s = await launching("brand-y");
    const chatToken = await chatting(s);
    const { organizationId, slug } = s.integration;
    await updateIntegration(f.db, { organizationId, slug, removeAliases: ["brand-y"] });
    expect(await refusal(verifyChatToken(f.db, chatToken))).toBe("unauthorized");
    await updateIntegration(f.db, { organizationId, slug, addAliases: ["brand-y"] });
    await s.grant(true);
    expect(await refusal(verifyChatToken(f.db, chatToken))).toBe("unauthorized");
    expect((await consumeLaunchCode(f.db, await s.launch())).loginRequired).toBe(true);
  });

  it("a grant serves relaunches through the key whose launch created it, not another key's", async () => {
    const s = await launching();
    const other = await f.launchKey({ integration: s.integration });
    await chatting(s);
    expect((await consumeLaunchCode(f.db, await s.launch(f.db, other))).loginRequired).toBe(true);
    expect((await consumeLaunchCode(f.db, await s.launch())).loginRequired).toBe(false);
  });
});
