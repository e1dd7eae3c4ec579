import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { openDatabase, type Database } from "../../src/db/database";
import { AppError } from "../../src/errors/app-error";
import { createApiKey } from "../../src/keys/api-keys";
import { createOrganization } from "../../src/orgs/organizations";
import { enforceRateLimit, type RateLimitState } from "../../src/rate-limits/rate-limit";
import { largestSlice } from "../../src/rate-limits/slice-policy";
import { takeRateLimitToken } from "../../src/rate-limits/take-rate-limit-token";
import { createTestDatabase, TEST_SECRETS, type TestDatabase } from "../../src/testing/index";

/**
 * Leased rate-limit tokens against a real PostgreSQL: two instances are two `openDatabase`
 * on one database, each with its own budgets (takeRateLimitToken keeps one per Database).
 */
let t: TestDatabase;
let first: Database;
let second: Database;
beforeAll(async () => {
  t = await createTestDatabase();
  first = openDatabase(t.url, { secrets: TEST_SECRETS, maxConnections: 5 });
  second = openDatabase(t.url, { secrets: TEST_SECRETS, maxConnections: 5 });
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
  await t.drop();
});

/** A long window for the counting tests, so a burst never straddles two windows. */
const HOUR = 3600;

async function newKeyId(): Promise<string> {
  const org = await createOrganization(t.db, { name: "Limits" });
  return (await createApiKey(t.db, { organizationId: org.id, name: "k", scopes: ["chat:read"] })).key.id;
}

/** Waits for the next window when fewer than `neededMs` are left of the current one. */
async function insideOneWindow(windowSeconds: number, neededMs: number): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const isAdmitted = (state: RateLimitState) => state.count <= state.limit;
const admittedCount = (states: RateLimitState[]) => states.filter(isAdmitted).length;

function burst(
  db: Database,
  keyId: string,
  requests: number,
  limitPerMinute: number,
  windowSeconds = HOUR,
): Promise<RateLimitState[]> {
  return Promise.all(
    Array.from({ length: requests }, () => takeRateLimitToken(db, { keyId, limitPerMinute, windowSeconds })),
  );
}

async function leasedInDatabase(keyId: string): Promise<number> {
  const { rows } = await t.db.sql.query<{ total: number }>(
    "SELECT coalesce(sum(count), 0)::int AS total FROM rate_limit_counters WHERE api_key_id = $1",
    [keyId],
  );
  return rows[0]?.total ?? 0;
}

/** The database as an instance that counts its statements (a Database of its own, so budgets of its own). */
function counting(db: Database): { db: Database; statements: () => number } {
  let statements = 0;
  const query = ((...args: Parameters<Database["sql"]["query"]>) => {
    statements += 1;
    return db.sql.query(...args);
  }) as Database["sql"]["query"];
  return {
    db: { ...db, sql: { query }, instance: { ...db.instance, rateLimitBudgets: undefined } },
    statements: () => statements,
  };
}

function refusal(state: RateLimitState): AppError {
  try {
    enforceRateLimit(state);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("rate limits from leased tokens", () => {
  it("two instances hammering one key never admit more than the limit, and leave at most one slice each unused", async () => {
    await insideOneWindow(HOUR, 10_000);
    const keyId = await newKeyId();
    const limit = 100;
    let admitted = 0;
    for (let round = 0; round < 3; round += 1) {
      const [a, b] = await Promise.all([burst(first, keyId, 70, limit), burst(second, keyId, 70, limit)]);
      admitted += admittedCount(a) + admittedCount(b);
      expect(admitted).toBeLessThanOrEqual(limit);
      expect(await leasedInDatabase(keyId)).toBeLessThanOrEqual(limit);
    }
    expect(admitted).toBeGreaterThanOrEqual(limit - 2 * largestSlice(limit));
  });

  it("a slow key (5 per window) is exact across two instances", async () => {
    await insideOneWindow(HOUR, 10_000);
    const keyId = await newKeyId();
    const [a, b] = await Promise.all([burst(first, keyId, 40, 5), burst(second, keyId, 40, 5)]);
    expect(admittedCount(a) + admittedCount(b)).toBe(5);
    expect(await leasedInDatabase(keyId)).toBe(5);
  });

  it("one instance admits exactly its limit, however its slices grew", async () => {
    await insideOneWindow(HOUR, 10_000);
    const keyId = await newKeyId();
    let admitted = 0;
    for (let round = 0; round < 13; round += 1) admitted += admittedCount(await burst(first, keyId, 100, 1000));
    expect(admitted).toBe(1000);
    expect(await leasedInDatabase(keyId)).toBe(1000);
  });

  it("headers count down one by one to the edge, include what other instances leased, and refuse with the window's reset", async () => {
    await insideOneWindow(60, 10_000);
    const keyId = await newKeyId();
    const remaining: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      const headers = enforceRateLimit(await takeRateLimitToken(first, { keyId, limitPerMinute: 100 }));
      remaining.push(Number(headers["X-RateLimit-Remaining"]));
      expect(headers.RateLimit).toBe(`"per-key";r=${remaining[i]};t=${headers["X-RateLimit-Reset"]}`);
    }
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    // The other instance has leased nothing, yet is refused: the budget is spent across instances.
    const error = refusal(await takeRateLimitToken(second, { keyId, limitPerMinute: 100 }));
    expect(error.code).toBe("rate_limited");
    const retryAfter = Number(error.headers["Retry-After"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(error.headers).toMatchObject({
      RateLimit: `"per-key";r=0;t=${retryAfter}`,
      "X-RateLimit-Remaining": "0",
      "RateLimit-Policy": '"per-key";q=100;w=60',
    });
    expect(refusal(await takeRateLimitToken(first, { keyId, limitPerMinute: 100 })).code).toBe("rate_limited");

    // Remaining includes the other instance's leases as of this instance's last lease.
    const shared = await newKeyId();
    expect(
      enforceRateLimit(await takeRateLimitToken(first, { keyId: shared, limitPerMinute: 10 }))["X-RateLimit-Remaining"],
    ).toBe("9");
    expect(
      enforceRateLimit(await takeRateLimitToken(second, { keyId: shared, limitPerMinute: 10 }))[
        "X-RateLimit-Remaining"
      ],
    ).toBe("8");
  });

  it("a refused request that waits its Retry-After is admitted", async () => {
    const windowSeconds = 2;
    await insideOneWindow(windowSeconds, 1_000);
    const keyId = await newKeyId();
    for (const db of [first, second])
      expect(isAdmitted(await takeRateLimitToken(db, { keyId, limitPerMinute: 2, windowSeconds }))).toBe(true);
    const refused = await takeRateLimitToken(first, { keyId, limitPerMinute: 2, windowSeconds });
    const retryAfter = Number(refusal(refused).headers["Retry-After"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    expect(refusal(refused).headers["RateLimit-Policy"]).toBe('"per-key";q=2;w=2');
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    const after = await takeRateLimitToken(first, { keyId, limitPerMinute: 2, windowSeconds });
    expect(isAdmitted(after)).toBe(true);
    expect(after.limit - after.count).toBe(1);
  });

  it("a fast key (100,000 per minute) serves 1,000 requests with a handful of lease statements", async () => {
    await insideOneWindow(60, 10_000);
    // One at a time: slices double from 1 (1 + 2 + … + 512 = 1,023), so at most ceil(log2(1,001)) = 10 leases.
    const sequential = counting(first);
    const keyId = await newKeyId();
    for (let i = 0; i < 1000; i += 1)
      expect(isAdmitted(await takeRateLimitToken(sequential.db, { keyId, limitPerMinute: 100_000 }))).toBe(true);
    expect(sequential.statements()).toBeLessThanOrEqual(Math.ceil(Math.log2(1001)));
    // All at once: the first lease is one token, the next covers every request waiting for it.
    const concurrent = counting(first);
    const other = await newKeyId();
    expect(admittedCount(await burst(concurrent.db, other, 1000, 100_000, 60))).toBe(1000);
    expect(concurrent.statements()).toBeLessThanOrEqual(2);
  });
});
