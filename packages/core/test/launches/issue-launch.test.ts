import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { hashSecret } from "../../src/ids/secret-token";
import { bindLaunchKey, unbindLaunchKey } from "../../src/launches/launch-bindings";
import { issueLaunch, LAUNCH_CODE_SECONDS } from "../../src/launches/launches";
import { setAliasGrant, updateIntegration } from "../../src/partners/integrations/integrations";
import { openFixtures, refusal, type Fixtures } from "../support/fixtures";

/** POST /v1/embed-sessions's domain (spec 4.8): a bound key, an eligible user, a single-use code stored only as a hash. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

describe("issuing a launch", () => {
  it("returns the canonical URL with the code in its fragment, expiring in two minutes; only the code's hash and the snapshot are stored", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const key = await f.launchKey({ integration });
    const before = Date.now();
    const launch = await f.launch({
      key,
      integration,
      externalUserId: user.externalUserId,
      loanContext: { external_loan_id: "LN-9", program: "fha" },
    });
    expect(launch.launchUrl).toBe(`https://chat.example.test/embed/partner/${integration.slug}#code=${launch.code}`);
    expect(launch.expiresAt.getTime() - before).toBeGreaterThanOrEqual(LAUNCH_CODE_SECONDS * 1000);
    expect(launch.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(LAUNCH_CODE_SECONDS * 1000);
    const { rows } = await f.db.sql.query("SELECT * FROM launches WHERE id = $1", [launch.launchId]);
    expect(JSON.stringify(rows)).not.toContain(launch.code);
    expect(rows[0]).toMatchObject({
      code_hash: hashSecret(launch.code),
      partner_user_id: user.id,
      access_version: user.accessVersion,
      account_generation: user.accountGeneration,
      loan_context: { external_loan_id: "LN-9", program: "fha" },
      attribution: {
        public_name: integration.slug,
        integration: integration.slug,
        los_source: integration.slug,
        api_key_id: key.id,
      },
    });
  });

  it("through a granted alias the URL still names the canonical integration; once the grant is withdrawn the launch is refused", async () => {
    const integration = await f.integration({ aliases: ["brand-x"] });
    const user = await f.user({ integration });
    const key = await f.apiKey({ org: { id: integration.organizationId }, scopes: ["embed:launch"] });
    const grant = (granted: boolean) =>
      setAliasGrant(f.db, { organizationId: integration.organizationId, alias: "brand-x", apiKeyId: key.id, granted });
    await grant(true);
    await bindLaunchKey(f.db, { apiKeyId: key.id, publicName: "brand-x" });
    const launch = await f.launch({ key, integration, externalUserId: user.externalUserId, publicName: "brand-x" });
    expect(new URL(launch.launchUrl).pathname).toBe(`/embed/partner/${integration.slug}`);
    await grant(false);
    expect(
      await refusal(f.launch({ key, integration, externalUserId: user.externalUserId, publicName: "brand-x" })),
    ).toBe("forbidden");
  });

  it("refuses a key bound to another name, an unbound key and a key of another organization (forbidden)", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const sibling = await f.integration({ org: { id: integration.organizationId } });
    const boundElsewhere = await f.launchKey({ integration: sibling });
    expect(await refusal(f.launch({ key: boundElsewhere, integration, externalUserId: user.externalUserId }))).toBe(
      "forbidden",
    );
    const unbound = await f.launchKey({ integration });
    await unbindLaunchKey(f.db, unbound.id);
    expect(await refusal(f.launch({ key: unbound, integration, externalUserId: user.externalUserId }))).toBe(
      "forbidden",
    );
    const never = await f.apiKey({ org: { id: integration.organizationId }, scopes: ["embed:launch"] });
    expect(await refusal(f.launch({ key: never, integration, externalUserId: user.externalUserId }))).toBe("forbidden");
    // Another organization's key, bound to its own integration of the same user's name: it reaches only its own users.
    const foreign = await f.integration();
    const foreignKey = await f.launchKey({ integration: foreign });
    expect(
      await refusal(
        issueLaunch(f.db, {
          key: foreignKey,
          publicName: integration.slug,
          externalUserId: user.externalUserId,
          loanContext: { external_loan_id: "L" },
          appUrl: "https://x.test",
        }),
      ),
    ).toBe("forbidden");
    expect(
      await refusal(f.launch({ key: foreignKey, integration: foreign, externalUserId: user.externalUserId })),
    ).toBe("identity_conflict");
  });

  it("refuses (identity_conflict) a user who is unknown, pending, disabled or deleted; a disabled integration is forbidden", async () => {
    const integration = await f.integration();
    const key = await f.launchKey({ integration });
    const launchFor = (externalUserId: string) => refusal(f.launch({ key, integration, externalUserId }));
    expect(await launchFor("nobody")).toBe("identity_conflict");
    for (const status of ["pending", "disabled", "deleted"] as const) {
      const user = await f.user({ integration, status });
      expect(await launchFor(user.externalUserId)).toBe("identity_conflict");
    }
    const user = await f.user({ integration });
    expect(await launchFor(user.externalUserId)).toBe("ok");
    await updateIntegration(f.db, {
      organizationId: integration.organizationId,
      slug: integration.slug,
      status: "disabled",
    });
    expect(await launchFor(user.externalUserId)).toBe("forbidden");
  });
});
