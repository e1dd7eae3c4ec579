import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { revokeApiKey } from "../../src/keys/api-keys";
import { bindLaunchKey, listLaunchBindings, unbindLaunchKey } from "../../src/launches/launch-bindings";
import { setAliasGrant } from "../../src/partners/integrations/integrations";
import { openFixtures, refusal, type Fixtures } from "../support/fixtures";

/** Launch bindings (spec section 5 item 6, ALIAS_GRANT_RULE): one public name per launch key, never expanded silently. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

describe("binding a launch key", () => {
  it("binds a key with embed:launch to a canonical slug of its own organization", async () => {
    const integration = await f.integration();
    const key = await f.apiKey({ org: { id: integration.organizationId }, scopes: ["embed:launch"] });
    expect(await bindLaunchKey(f.db, { apiKeyId: key.id, publicName: integration.slug })).toEqual({
      apiKeyId: key.id,
      publicName: integration.slug,
      integration: integration.slug,
      enabled: true,
    });
    expect((await listLaunchBindings(f.db, integration.organizationId)).get(key.id)).toMatchObject({ enabled: true });
  });

  it("refuses a key without embed:launch, a revoked key, an unknown key, a malformed name", async () => {
    const integration = await f.integration();
    const org = { id: integration.organizationId };
    const directoryKey = await f.apiKey({ org, scopes: ["embed:users:read"] });
    expect(await refusal(bindLaunchKey(f.db, { apiKeyId: directoryKey.id, publicName: integration.slug }))).toBe(
      "invalid_request",
    );
    const revoked = await f.apiKey({ org, scopes: ["embed:launch"] });
    await revokeApiKey(f.db, revoked.id);
    expect(await refusal(bindLaunchKey(f.db, { apiKeyId: revoked.id, publicName: integration.slug }))).toBe(
      "invalid_request",
    );
    expect(await refusal(bindLaunchKey(f.db, { apiKeyId: "key_missing", publicName: integration.slug }))).toBe(
      "not_found",
    );
    const key = await f.apiKey({ org, scopes: ["embed:launch"] });
    expect(await refusal(bindLaunchKey(f.db, { apiKeyId: key.id, publicName: "Not A Slug" }))).toBe("invalid_request");
    expect((await listLaunchBindings(f.db, integration.organizationId)).size).toBe(0);
  });

  it("another organization's integration is not found for the key", async () => {
    const mine = await f.integration();
    const theirs = await f.integration();
    const key = await f.apiKey({ org: { id: mine.organizationId }, scopes: ["embed:launch"] });
    expect(await refusal(bindLaunchKey(f.db, { apiKeyId: key.id, publicName: theirs.slug }))).toBe("not_found");
  });

  it("an alias only once it is granted to the key", async () => {
    const integration = await f.integration({ aliases: ["public-name"] });
    const key = await f.apiKey({ org: { id: integration.organizationId }, scopes: ["embed:launch"] });
    await expect(bindLaunchKey(f.db, { apiKeyId: key.id, publicName: "public-name" })).rejects.toMatchObject({
      code: "invalid_request",
      field: "integration",
    });
    await setAliasGrant(f.db, {
      organizationId: integration.organizationId,
      alias: "public-name",
      apiKeyId: key.id,
      granted: true,
    });
    expect(await bindLaunchKey(f.db, { apiKeyId: key.id, publicName: "public-name" })).toMatchObject({
      publicName: "public-name",
      integration: integration.slug,
    });
  });

  it("unbinding disables the binding; an unknown key is not_found", async () => {
    const integration = await f.integration();
    const key = await f.launchKey({ integration });
    expect(await unbindLaunchKey(f.db, key.id)).toEqual({ apiKeyId: key.id, enabled: false });
    expect((await listLaunchBindings(f.db, integration.organizationId)).get(key.id)).toMatchObject({ enabled: false });
    expect(await refusal(unbindLaunchKey(f.db, "key_missing"))).toBe("not_found");
  });
});
