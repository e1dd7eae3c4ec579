import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { openDatabase, type Database } from "../../src/db/database";
import { createApiKey, revokeApiKey, setApiKeyRateLimit, updateApiKey } from "../../src/keys/api-keys";
import { authenticateApiKey, type AuthenticatedKey } from "../../src/keys/authenticate-api-key";
import { KEY_CHANGES_CHANNEL, type KeyChange } from "../../src/keys/key-changes";
import { generateApiKey } from "../../src/keys/key-secret";
import { rollApiKey } from "../../src/keys/roll-api-key";
import { startKeyCache, type RunningKeyCache } from "../../src/keys/start-key-cache";
import { createOrganization, renameOrganization } from "../../src/orgs/organizations";
import { configureTenant } from "../../src/tenants/tenant-config";
import { createTestDatabase, TEST_SECRETS, type TestDatabase } from "../../src/testing/index";

/**
 * The key cache (issue 14): two instances (two database handles, each with its own cache and
 * LISTEN connection) on one PostgreSQL. A change made through one is seen by the other on its
 * next request; a cached hit makes no query; an unknown key is looked up once per interval.
 */
const REFUSAL_TTL_MS = 400;
/** The bounded wait for a notification's delivery. */
const DELIVERY_MS = 1_000;

let t: TestDatabase;
/** Instance A: changes are made through it. */
let a: Database;
let cacheA: RunningKeyCache;
/** Instance B: its queries are counted. */
let b: Database;
let cacheB: RunningKeyCache;
let queriesB: string[] = [];
/** The changes B's cache has applied, in order (notifications included). */
const changesSeenB: Array<KeyChange | undefined> = [];
/** While set, B's key lookups (by secret hash) wait for it before reaching the database. */
let holdLookupsB: Promise<void> | undefined;

beforeAll(async () => {
  t = await createTestDatabase();
  a = t.db;
  b = openDatabase(t.url, { secrets: TEST_SECRETS, maxConnections: 3 });
  const pool = b.sql;
  b.sql = {
    query: ((text: string, params?: unknown[]) => {
      queriesB.push(text);
      const held = text.includes("secret_hash") ? holdLookupsB : undefined;
      return held ? held.then(() => pool.query(text, params)) : pool.query(text, params);
    }) as Database["sql"]["query"],
  };
  cacheA = startKeyCache(a, t.url);
  cacheB = startKeyCache(b, t.url, { refusalTtlMs: REFUSAL_TTL_MS });
  await Promise.all([cacheA.ready, cacheB.ready]);
  const apply = cacheB.cache.apply.bind(cacheB.cache);
  cacheB.cache.apply = (change) => {
    changesSeenB.push(change);
    apply(change);
  };
});
/**
 * Each test starts once B has applied every change the earlier tests made: PostgreSQL delivers
 * notifications in commit order, so a marker sent now and seen by B comes after all of them.
 * Without it a late notification (a loaded machine) drops what a test has just made B cache.
 */
beforeEach(async () => {
  const marker = `settled-${randomUUID()}`;
  await a.sql.query("SELECT pg_notify($1, $2)", [
    KEY_CHANGES_CHANNEL,
    JSON.stringify({ kind: "organization", id: marker }),
  ]);
  await within(DELIVERY_MS * 5, async () =>
    changesSeenB.some((change) => change?.kind === "organization" && change.id === marker) ? true : undefined,
  );
});
afterAll(async () => {
  await cacheA.stop();
  await cacheB.stop();
  await b.close();
  await t.drop();
});

async function newKey(options: { rateLimitPerMinute?: number; scopes?: string[] } = {}) {
  const org = await createOrganization(a, { name: "Cached Lending" });
  const { key, plaintext } = await createApiKey(a, {
    organizationId: org.id,
    name: "k",
    scopes: options.scopes ?? ["chat:read"],
    rateLimitPerMinute: options.rateLimitPerMinute,
  });
  return { id: key.id, organizationId: org.id, plaintext };
}

/** How many queries instance B ran for `work`. */
async function queriesOf<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  queriesB = [];
  const result = await work();
  return { result, queries: queriesB.length };
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );

/** Polls `check` (one request each time) until it holds; fails after the delivery bound. */
async function within<T>(ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** B's view of a key once it no longer equals `before` (a change reached it). */
const changedOnB = (plaintext: string, before: AuthenticatedKey) =>
  within(DELIVERY_MS, async () => {
    const now = await authenticateApiKey(b, plaintext);
    return JSON.stringify(now) === JSON.stringify(before) ? undefined : now;
  });

/** Authenticates on B until the key is cached there (two lookups; the second must be free). */
async function cachedOnB(plaintext: string): Promise<AuthenticatedKey> {
  const first = await queriesOf(() => authenticateApiKey(b, plaintext));
  expect(first.queries).toBe(1);
  const second = await queriesOf(() => authenticateApiKey(b, plaintext));
  expect(second.queries).toBe(0);
  expect(second.result).toEqual(first.result);
  return second.result;
}

describe("key cache", () => {
  it("answers a cached key with no query at all, and without a cache (the CLI's handle) reads the database every time", async () => {
    const key = await newKey();
    const cached = await cachedOnB(key.plaintext);
    expect(cached).toMatchObject({ id: key.id, organizationId: key.organizationId, scopes: ["chat:read"] });
    for (let i = 0; i < 20; i += 1)
      expect((await queriesOf(() => authenticateApiKey(b, key.plaintext))).queries).toBe(0);
    // A handle with no cache running.
    const plain = openDatabase(t.url, { secrets: TEST_SECRETS, maxConnections: 1 });
    try {
      let queries = 0;
      const pool = plain.sql;
      plain.sql = {
        query: ((text: string, params?: unknown[]) => (
          queries++,
          pool.query(text, params)
        )) as Database["sql"]["query"],
      };
      await authenticateApiKey(plain, key.plaintext);
      await authenticateApiKey(plain, key.plaintext);
      expect(queries).toBe(2);
    } finally {
      await plain.close();
    }
  });

  it("concurrent requests of a key that is not cached share one lookup (a burst on a cold key costs one query)", async () => {
    const key = await newKey();
    const burst = await queriesOf(() =>
      Promise.all(Array.from({ length: 50 }, () => authenticateApiKey(b, key.plaintext))),
    );
    expect(burst.queries).toBe(1);
    expect(new Set(burst.result.map((found) => JSON.stringify(found))).size).toBe(1);
    expect(burst.result[0]).toMatchObject({ id: key.id });
    // The same for an unknown key: its refusal is shared too.
    const unknown = generateApiKey().plaintext;
    const refusals = await queriesOf(() =>
      Promise.all(Array.from({ length: 20 }, () => refusalOf(authenticateApiKey(b, unknown)))),
    );
    expect(refusals.queries).toBe(1);
    expect(new Set(refusals.result)).toEqual(new Set(["unauthorized: invalid API key"]));
  });

  it("a request that arrives after a change does not join a lookup that began before it", async () => {
    const key = await newKey();
    let release = () => {};
    holdLookupsB = new Promise((resolve) => (release = resolve));
    try {
      const before = authenticateApiKey(b, key.plaintext);
      // Revoked through B itself: B's cache applies the change when it commits.
      await revokeApiKey(b, key.id);
      holdLookupsB = undefined;
      // Answered by a lookup of its own while the earlier one is still held (a shared one would wait for it).
      expect(await refusalOf(authenticateApiKey(b, key.plaintext))).toBe("unauthorized: this API key has been revoked");
      release();
      await refusalOf(before);
    } finally {
      holdLookupsB = undefined;
      release();
    }
  });

  it("keeps serving a cached key when the database changes without an announcement (so the announcement is what invalidates)", async () => {
    const key = await newKey();
    await cachedOnB(key.plaintext);
    await a.sql.query("UPDATE api_keys SET scopes = '{chat:read,chat:write}' WHERE id = $1", [key.id]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await authenticateApiKey(b, key.plaintext)).scopes).toEqual(["chat:read"]);
  });

  it("a change made through A is seen by A's very next request, before its own notification comes back", async () => {
    const key = await newKey();
    expect((await authenticateApiKey(a, key.plaintext)).rateLimitPerMinute).toBeNull();
    expect((await authenticateApiKey(a, key.plaintext)).rateLimitPerMinute).toBeNull();
    await setApiKeyRateLimit(a, key.id, 9);
    expect((await authenticateApiKey(a, key.plaintext)).rateLimitPerMinute).toBe(9);
    await revokeApiKey(a, key.id);
    await expect(authenticateApiKey(a, key.plaintext)).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("a key revoked through A is refused by B on its next request", async () => {
    const key = await newKey();
    await cachedOnB(key.plaintext);
    await revokeApiKey(a, key.id);
    const refusal = await within(DELIVERY_MS, () => refusalOf(authenticateApiKey(b, key.plaintext)));
    expect(refusal).toBe("unauthorized: this API key has been revoked");
  });

  it("a rate-limit change, a scope change, a tenant configuration and an organization rename reach B's cached key", async () => {
    const key = await newKey({ rateLimitPerMinute: 50 });
    let seen = await cachedOnB(key.plaintext);
    expect(seen.rateLimitPerMinute).toBe(50);

    await setApiKeyRateLimit(a, key.id, 7);
    seen = await changedOnB(key.plaintext, seen);
    expect(seen.rateLimitPerMinute).toBe(7);

    await updateApiKey(a, key.id, { scopes: ["chat:read", "sources:read"] });
    seen = await changedOnB(key.plaintext, seen);
    expect(seen.scopes).toEqual(["chat:read", "sources:read"]);

    await updateApiKey(a, key.id, { name: "renamed key" });
    seen = await changedOnB(key.plaintext, seen);
    expect(seen.name).toBe("renamed key");

    // Unconfigured, the tenant is named after the organization.
    expect(seen.tenant.clientName).toBe("Cached Lending");
    await renameOrganization(a, key.organizationId, "Renamed Lending");
    seen = await changedOnB(key.plaintext, seen);
    expect(seen.tenant.clientName).toBe("Renamed Lending");

    await configureTenant(a, {
      organizationId: key.organizationId,
      config: { clientName: "Configured Client", enabledSources: [], baseSources: [] },
    });
    seen = await changedOnB(key.plaintext, seen);
    expect(seen.tenant.clientName).toBe("Configured Client");
  });

  it("a cached key past its expiry is refused with no query (the clock is checked on every request)", async () => {
    const org = await createOrganization(a, { name: "Expiring Lending" });
    const expiresAt = new Date(Date.now() + 60_000);
    const { plaintext } = await createApiKey(a, {
      organizationId: org.id,
      name: "k",
      scopes: ["chat:read"],
      expiresAt,
    });
    expect((await cachedOnB(plaintext)).expiresAt?.toISOString()).toBe(expiresAt.toISOString());
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(expiresAt.getTime());
      const refused = await queriesOf(() => refusalOf(authenticateApiKey(b, plaintext)));
      expect(refused).toEqual({
        result: `unauthorized: this API key expired at ${expiresAt.toISOString()}`,
        queries: 0,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("a roll through A gives B's cached old key its expiry, and B accepts the successor at once", async () => {
    const key = await newKey();
    const before = await cachedOnB(key.plaintext);
    expect(before.expiresAt).toBeNull();
    const rolled = await rollApiKey(a, key.id, { oldKeyExpiresInSeconds: 600 });
    const after = await changedOnB(key.plaintext, before);
    expect(after.expiresAt?.toISOString()).toBe(rolled.previous.expiresAt?.toISOString());
    expect((await authenticateApiKey(b, rolled.plaintext)).id).toBe(rolled.key.id);
  });

  it("a change to one organization leaves other organizations' cached keys cached", async () => {
    const changed = await newKey();
    const untouched = await newKey();
    await cachedOnB(untouched.plaintext);
    const before = await cachedOnB(changed.plaintext);
    await renameOrganization(a, changed.organizationId, "Elsewhere Lending");
    await changedOnB(changed.plaintext, before);
    expect((await queriesOf(() => authenticateApiKey(b, untouched.plaintext))).queries).toBe(0);
  });

  it("hands out a record no request can change for the others", async () => {
    const key = await newKey();
    const cached = await cachedOnB(key.plaintext);
    expect(() => (cached.scopes as string[]).push("chat:write")).toThrow(TypeError);
    expect((await authenticateApiKey(b, key.plaintext)).scopes).toEqual(["chat:read"]);
  });

  it("spares only the cached key itself its checksum: a look-alike with a wrong one is refused with no query", async () => {
    const key = await newKey();
    await cachedOnB(key.plaintext);
    const lookAlike = key.plaintext.slice(0, -1) + (key.plaintext.endsWith("a") ? "b" : "a");
    expect(await queriesOf(() => refusalOf(authenticateApiKey(b, lookAlike)))).toEqual({
      result: "unauthorized: invalid API key",
      queries: 0,
    });
  });

  it("looks an unknown (well-formed) key up at most once per interval, and a key created meanwhile clears the refusals", async () => {
    const madeUp = generateApiKey().plaintext;
    const first = await queriesOf(() => refusalOf(authenticateApiKey(b, madeUp)));
    expect(first).toEqual({ result: "unauthorized: invalid API key", queries: 1 });
    for (let i = 0; i < 20; i += 1)
      expect(await queriesOf(() => refusalOf(authenticateApiKey(b, madeUp)))).toEqual({
        result: "unauthorized: invalid API key",
        queries: 0,
      });
    await new Promise((resolve) => setTimeout(resolve, REFUSAL_TTL_MS + 50));
    expect((await queriesOf(() => refusalOf(authenticateApiKey(b, madeUp)))).queries).toBe(1);

    // Refused again from memory, until a key is created anywhere.
    expect((await queriesOf(() => refusalOf(authenticateApiKey(b, madeUp)))).queries).toBe(0);
    await newKey();
    await within(DELIVERY_MS, async () =>
      (await queriesOf(() => refusalOf(authenticateApiKey(b, madeUp)))).queries === 1 ? true : undefined,
    );
  });

  it("a revoked key is refused from memory too (revocation is final)", async () => {
    const key = await newKey();
    await revokeApiKey(a, key.id);
    // Once B has the revocation it has the key's creation (sent before it), which would clear a refusal it holds.
    await within(DELIVERY_MS, async () =>
      changesSeenB.some((change) => change?.kind === "key" && change.id === key.id) ? true : undefined,
    );
    expect(await queriesOf(() => refusalOf(authenticateApiKey(b, key.plaintext)))).toEqual({
      result: "unauthorized: this API key has been revoked",
      queries: 1,
    });
    expect(await queriesOf(() => refusalOf(authenticateApiKey(b, key.plaintext)))).toEqual({
      result: "unauthorized: this API key has been revoked",
      queries: 0,
    });
  });

  it("when B's LISTEN connection is cut, B drops its cache and reads the database until it has reconnected; a revocation made meanwhile is seen", async () => {
    const revoked = await newKey();
    const kept = await newKey();
    await cachedOnB(revoked.plaintext);
    await cachedOnB(kept.plaintext);
    const pid = cacheB.listenerPid;
    expect(pid).toBeTypeOf("number");
    await a.sql.query("SELECT pg_terminate_backend($1)", [pid]);
    await within(DELIVERY_MS, async () => (cacheB.listenerPid === pid ? undefined : true));
    // Revoked while B cannot hear it: B's notification is lost.
    await revokeApiKey(a, revoked.id);
    expect(await refusalOf(authenticateApiKey(b, revoked.plaintext))).toBe(
      "unauthorized: this API key has been revoked",
    );
    // Reconnected (a new backend), with LISTEN in force again.
    await within(5_000, async () => (cacheB.listening && cacheB.listenerPid !== pid ? true : undefined));
    // Caching again, and hearing changes again.
    const again = await cachedOnB(kept.plaintext);
    await setApiKeyRateLimit(a, kept.id, 3);
    expect((await changedOnB(kept.plaintext, again)).rateLimitPerMinute).toBe(3);
  });

  it("while disconnected, nothing is served from memory", async () => {
    const key = await newKey();
    await cachedOnB(key.plaintext);
    const pid = cacheB.listenerPid;
    await a.sql.query("SELECT pg_terminate_backend($1)", [pid]);
    await within(DELIVERY_MS, async () => (cacheB.listening ? undefined : true));
    // Whatever the timing of the reconnection: the first lookup after the loss reads the database.
    expect((await queriesOf(() => authenticateApiKey(b, key.plaintext))).queries).toBe(1);
    await within(5_000, async () => (cacheB.listening ? true : undefined));
  });
});
