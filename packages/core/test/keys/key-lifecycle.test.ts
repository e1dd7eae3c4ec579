import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { createApiKey, getApiKey, revokeApiKey, updateApiKey } from "../../src/keys/api-keys";
import { authenticateApiKey } from "../../src/keys/authenticate-api-key";
import { listKeysExpiringWithin } from "../../src/keys/expiring-keys";
import { rollApiKey } from "../../src/keys/roll-api-key";
import { bindLaunchKey, listLaunchBindings } from "../../src/launches/launch-bindings";
import { createOrganization } from "../../src/orgs/organizations";
import { createIntegration, getIntegration, setAliasGrant } from "../../src/partners/integrations/integrations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";

/** Key lifecycle (issue 25): expiry at creation, roll, edit, and the "expiring soon" list. */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});
afterEach(() => {
  vi.useRealTimers();
});

const DAY = 24 * 60 * 60 * 1000;
const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );

async function newOrgKey(input: { scopes?: string[]; expiresAt?: Date | null; rateLimitPerMinute?: number } = {}) {
  const org = await createOrganization(t.db, { name: "Lifecycle Lending" });
  const created = await createApiKey(t.db, {
    organizationId: org.id,
    name: "server",
    scopes: input.scopes ?? ["chat:read"],
    ...input,
  });
  return { org, ...created };
}

describe("expiry at creation", () => {
  it("accepts a future expiry up to 365 days ahead and refuses the past, now and further", async () => {
    const org = await createOrganization(t.db, { name: "Bounds" });
    const create = (expiresAt: Date) =>
      refusalOf(createApiKey(t.db, { organizationId: org.id, name: "k", scopes: "chat:read", expiresAt }));
    expect(await create(new Date(Date.now() - 1_000))).toBe("invalid_request: expires_at: must be in the future");
    expect(await create(new Date(Date.now() + 366 * DAY))).toBe(
      "invalid_request: expires_at: must be at most 365 days ahead",
    );
    expect(await create(new Date(Number.NaN))).toBe("invalid_request: expires_at: must be a date-time");
    const at = new Date(Date.now() + 364 * DAY);
    const { key } = await createApiKey(t.db, { organizationId: org.id, name: "k", scopes: "chat:read", expiresAt: at });
    expect(key.expiresAt?.toISOString()).toBe(at.toISOString());
    expect(
      (await createApiKey(t.db, { organizationId: org.id, name: "k", scopes: "chat:read" })).key.expiresAt,
    ).toBeNull();
  });

  it("works until its expiry, then is refused as unauthorized with a message that says it expired", async () => {
    const at = new Date(Date.now() + DAY);
    const { key, plaintext } = await newOrgKey({ expiresAt: at });
    expect((await authenticateApiKey(t.db, plaintext)).expiresAt?.toISOString()).toBe(at.toISOString());
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at.getTime() + 1);
    expect(await refusalOf(authenticateApiKey(t.db, plaintext))).toBe(
      `unauthorized: this API key expired at ${at.toISOString()}`,
    );
    // Still listed as active: expiry is a date, not a status.
    expect((await getApiKey(t.db, key.id)).status).toBe("active");
  });
});

describe("roll", () => {
  it("copies name, scopes, rate limit, alias grants and launch binding; both work until the old key's expiry", async () => {
    const {
      org,
      key: old,
      plaintext: oldSecret,
    } = await newOrgKey({ scopes: ["embed:launch"], rateLimitPerMinute: 77 });
    await createIntegration(t.db, { organizationId: org.id, slug: "roll-los", aliases: ["roll-public", "roll-other"] });
    await setAliasGrant(t.db, { organizationId: org.id, alias: "roll-public", apiKeyId: old.id, granted: true });
    await bindLaunchKey(t.db, { apiKeyId: old.id, publicName: "roll-public" });

    const rolled = await rollApiKey(t.db, old.id, { oldKeyExpiresInSeconds: 3600 });
    expect(rolled.key).toMatchObject({
      organizationId: org.id,
      name: "server",
      scopes: ["embed:launch"],
      rateLimitPerMinute: 77,
      status: "active",
      expiresAt: null,
      rolledFromKeyId: old.id,
    });
    expect(rolled.key.id).not.toBe(old.id);
    expect(rolled.plaintext).not.toBe(oldSecret);
    expect(Math.abs((rolled.previous.expiresAt?.getTime() ?? 0) - (Date.now() + 3_600_000))).toBeLessThan(5_000);

    const aliases = (await getIntegration(t.db, org.id, "roll-los")).aliases;
    expect(aliases).toEqual([
      { slug: "roll-other", grantedKeyIds: [] },
      { slug: "roll-public", grantedKeyIds: [old.id, rolled.key.id] },
    ]);
    const bindings = await listLaunchBindings(t.db, org.id);
    expect(bindings.get(rolled.key.id)).toEqual({
      apiKeyId: rolled.key.id,
      publicName: "roll-public",
      integration: "roll-los",
      enabled: true,
    });
    expect(bindings.get(old.id)?.enabled).toBe(true);

    expect((await authenticateApiKey(t.db, oldSecret)).id).toBe(old.id);
    expect((await authenticateApiKey(t.db, rolled.plaintext)).id).toBe(rolled.key.id);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 3_601_000);
    expect(await refusalOf(authenticateApiKey(t.db, oldSecret))).toMatch(/^unauthorized: this API key expired at /);
    expect((await authenticateApiKey(t.db, rolled.plaintext)).id).toBe(rolled.key.id);
  });

  it("never lengthens the old key's life, expires it at once with 0, and gives the successor its own expiry within creation's bounds", async () => {
    const soon = new Date(Date.now() + 60_000);
    const { key } = await newOrgKey({ expiresAt: soon });
    const rolled = await rollApiKey(t.db, key.id, { oldKeyExpiresInSeconds: 7 * 24 * 3600 });
    expect(rolled.previous.expiresAt?.toISOString()).toBe(soon.toISOString());

    const { key: other, plaintext } = await newOrgKey();
    const successorExpiry = new Date(Date.now() + 30 * DAY);
    const now = await rollApiKey(t.db, other.id, { oldKeyExpiresInSeconds: 0, expiresAt: successorExpiry });
    expect(now.key.expiresAt?.toISOString()).toBe(successorExpiry.toISOString());
    expect(await refusalOf(authenticateApiKey(t.db, plaintext))).toMatch(/^unauthorized: this API key expired at /);
  });

  it("refuses a revoked key, a second roll while the successor lives, and overlaps outside 0..7 days", async () => {
    const { key } = await newOrgKey();
    const overlap = (seconds: number) => refusalOf(rollApiKey(t.db, key.id, { oldKeyExpiresInSeconds: seconds }));
    for (const seconds of [-1, 7 * 24 * 3600 + 1, 1.5])
      expect(await overlap(seconds)).toMatch(
        /^invalid_request: old_key_expires_in_seconds: must be a whole number from 0/,
      );
    expect(
      await refusalOf(rollApiKey(t.db, key.id, { oldKeyExpiresInSeconds: 60, expiresAt: new Date(Date.now() - 1) })),
    ).toBe("invalid_request: expires_at: must be in the future");
    const first = await rollApiKey(t.db, key.id, { oldKeyExpiresInSeconds: 60 });
    expect(await overlap(60)).toBe(
      `invalid_request: key ${key.id} was already rolled to ${first.key.id}; revoke that key first to roll again`,
    );
    await revokeApiKey(t.db, first.key.id);
    const second = await rollApiKey(t.db, key.id, { oldKeyExpiresInSeconds: 60 });
    expect(second.key.rolledFromKeyId).toBe(key.id);
    await revokeApiKey(t.db, key.id);
    expect(await overlap(60)).toBe(`invalid_request: key ${key.id} is revoked; create a new key instead`);
    expect(await refusalOf(rollApiKey(t.db, "key_missing", { oldKeyExpiresInSeconds: 60 }))).toBe(
      "not_found: key key_missing not found",
    );
  });
});

describe("edit", () => {
  it("renames and replaces scopes (validated), refuses a revoked key", async () => {
    const { key } = await newOrgKey({ scopes: ["chat:read", "chat:write"] });
    expect(await updateApiKey(t.db, key.id, { name: "  renamed  " })).toMatchObject({
      name: "renamed",
      scopes: ["chat:read", "chat:write"],
    });
    expect(await updateApiKey(t.db, key.id, { scopes: ["chat:read"] })).toMatchObject({
      name: "renamed",
      scopes: ["chat:read"],
    });
    expect(await refusalOf(updateApiKey(t.db, key.id, { scopes: [] }))).toMatch(
      /^invalid_request: scopes: at least one scope/,
    );
    expect(await refusalOf(updateApiKey(t.db, key.id, { scopes: ["embed:*"] }))).toMatch(
      /^invalid_request: scopes: unknown scope embed:\*/,
    );
    expect(await refusalOf(updateApiKey(t.db, key.id, { name: " " }))).toBe(
      "invalid_request: name: must be 1-200 characters",
    );
    expect(await refusalOf(updateApiKey(t.db, "key_missing", { name: "x" }))).toBe(
      "not_found: key key_missing not found",
    );
    await revokeApiKey(t.db, key.id);
    expect(await refusalOf(updateApiKey(t.db, key.id, { name: "x" }))).toBe(
      `invalid_request: key ${key.id} is revoked`,
    );
  });
});

describe("keys expiring within N days", () => {
  it("lists active keys that expire within the window, soonest first, per organization or across all", async () => {
    const org = await createOrganization(t.db, { name: "Expiring" });
    const make = async (name: string, expiresAt: Date | null) =>
      (await createApiKey(t.db, { organizationId: org.id, name, scopes: "chat:read", expiresAt })).key;
    const inSix = await make("six days", new Date(Date.now() + 6 * DAY));
    const inOne = await make("one day", new Date(Date.now() + DAY));
    await make("eight days", new Date(Date.now() + 8 * DAY));
    await make("never", null);
    const revoked = await make("revoked", new Date(Date.now() + 2 * DAY));
    await revokeApiKey(t.db, revoked.id);
    const expired = await make("expired", new Date(Date.now() + 60_000));
    const within = async (input: { withinDays: number; organizationId?: string; now?: Date }) =>
      (await listKeysExpiringWithin(t.db, input)).map((key) => key.name);
    expect(await within({ withinDays: 7, organizationId: org.id })).toEqual(["expired", "one day", "six days"]);
    expect(await within({ withinDays: 7, organizationId: org.id, now: new Date(Date.now() + 1.5 * DAY) })).toEqual([
      "six days",
      "eight days",
    ]);
    expect((await listKeysExpiringWithin(t.db, { withinDays: 7 })).map((key) => key.id)).toEqual(
      expect.arrayContaining([inOne.id, inSix.id, expired.id]),
    );
    expect(await refusalOf(listKeysExpiringWithin(t.db, { withinDays: 0 }))).toBe(
      "invalid_request: within_days: must be a whole number from 1 to 365",
    );
  });
});
