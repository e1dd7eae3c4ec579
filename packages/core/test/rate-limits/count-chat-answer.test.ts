import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { openDatabase, type Database } from "../../src/db/database";
import { JobQueue } from "../../src/jobs/job-queue";
import { createIntegration, updateIntegration } from "../../src/partners/integrations/integrations";
import {
  DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE,
  MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE,
} from "../../src/rate-limits/chat-answer-limit";
import { countChatAnswer } from "../../src/rate-limits/count-chat-answer";
import { enforceRateLimit, type RateLimitState } from "../../src/rate-limits/rate-limit";
import { createTestDatabase, TEST_SECRETS, type TestDatabase } from "../../src/testing/index";
import { recordStatements } from "../support/database-probes";
import { fixtures, type Fixtures } from "../support/fixtures";

/**
 * Hosted-chat answers per partner user against a real PostgreSQL: two instances are two
 * `openDatabase` on one database. Counting tests use an hour's window, so a burst never
 * straddles two windows.
 */
let t: TestDatabase;
let f: Fixtures;
let first: Database;
let second: Database;
beforeAll(async () => {
  t = await createTestDatabase();
  f = fixtures(t, await JobQueue.start({ connectionString: t.url }));
  first = openDatabase(t.url, { secrets: TEST_SECRETS, maxConnections: 5 });
  second = openDatabase(t.url, { secrets: TEST_SECRETS, maxConnections: 5 });
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
  await f.close();
});

const HOUR = 3600;
const admitted = (states: RateLimitState[]) => states.filter((state) => state.count <= state.limit).length;

function burst(db: Database, partnerUserId: string, answers: number): Promise<RateLimitState[]> {
  return Promise.all(
    Array.from(
      { length: answers },
      async () => (await countChatAnswer(db, { partnerUserId, windowSeconds: HOUR })).state,
    ),
  );
}

async function countedInDatabase(partnerUserId: string): Promise<number> {
  const { rows } = await t.db.sql.query<{ total: number }>(
    "SELECT coalesce(sum(count), 0)::int AS total FROM partner_user_rate_limit_counters WHERE partner_user_id = $1",
    [partnerUserId],
  );
  return rows[0]?.total ?? 0;
}

describe("chat answers per partner user", () => {
  it("the default limit, counted in the statement that reads the user's external id; a refused answer is not counted", async () => {
    const user = await f.user();
    const statements = recordStatements(first);
    const results = [];
    for (let i = 0; i <= DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE; i += 1)
      results.push(await countChatAnswer(first, { partnerUserId: user.id, windowSeconds: HOUR }));
    expect(statements).toHaveLength(DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE + 1);
    expect(results.map((result) => result.externalUserId)).toEqual(results.map(() => user.externalUserId));
    expect(results.map((result) => result.state.count)).toEqual([
      ...Array.from({ length: DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE }, (_, i) => i + 1),
      DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE + 1,
    ]);
    expect(await countedInDatabase(user.id)).toBe(DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE);

    const refused = results.at(-1)?.state as RateLimitState;
    expect(refused).toMatchObject({
      limit: DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE,
      policy: "per-user",
      windowSeconds: HOUR,
    });
    let error: { code?: string; headers?: Record<string, string> } = {};
    try {
      enforceRateLimit(refused);
    } catch (caught) {
      error = caught as typeof error;
    }
    expect(error.code).toBe("rate_limited");
    expect(error.headers).toMatchObject({
      "RateLimit-Policy": `"per-user";q=${DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE};w=${HOUR}`,
      "Retry-After": String(refused.resetSeconds),
    });
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.resetSeconds).toBeLessThanOrEqual(HOUR);
  });

  it("the integration's setting applies from the next answer on; null returns to the default", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    await updateIntegration(f.db, {
      organizationId: integration.organizationId,
      slug: integration.slug,
      chatAnswersPerUserPerMinute: 3,
    });
    expect(admitted(await burst(first, user.id, 5))).toBe(3);
    await updateIntegration(f.db, {
      organizationId: integration.organizationId,
      slug: integration.slug,
      chatAnswersPerUserPerMinute: 4,
    });
    expect((await countChatAnswer(first, { partnerUserId: user.id, windowSeconds: HOUR })).state).toMatchObject({
      limit: 4,
      count: 4,
    });
    await updateIntegration(f.db, {
      organizationId: integration.organizationId,
      slug: integration.slug,
      chatAnswersPerUserPerMinute: null,
    });
    expect((await countChatAnswer(first, { partnerUserId: user.id, windowSeconds: HOUR })).state).toMatchObject({
      limit: DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE,
      count: 5,
    });
    // Another user of the same integration has a count of his own.
    const colleague = await f.user({ integration });
    expect((await countChatAnswer(first, { partnerUserId: colleague.id, windowSeconds: HOUR })).state.count).toBe(1);
  });

  it("two instances answering one user at once admit exactly the limit between them", async () => {
    const integration = await f.integration();
    await updateIntegration(f.db, {
      organizationId: integration.organizationId,
      slug: integration.slug,
      chatAnswersPerUserPerMinute: 7,
    });
    const user = await f.user({ integration });
    const [a, b] = await Promise.all([burst(first, user.id, 30), burst(second, user.id, 30)]);
    expect(admitted(a) + admitted(b)).toBe(7);
    expect(await countedInDatabase(user.id)).toBe(7);
  });

  it("a new window counts from zero", async () => {
    const integration = await f.integration();
    await updateIntegration(f.db, {
      organizationId: integration.organizationId,
      slug: integration.slug,
      chatAnswersPerUserPerMinute: 1,
    });
    const user = await f.user({ integration });
    expect(admitted(await burst(first, user.id, 2))).toBe(1);
    await t.db.sql.query(
      "UPDATE partner_user_rate_limit_counters SET window_start = window_start - interval '1 hour' WHERE partner_user_id = $1",
      [user.id],
    );
    expect(admitted(await burst(first, user.id, 1))).toBe(1);
  });

  it("a user gone meanwhile is a 404, and nothing is counted", async () => {
    await expect(countChatAnswer(first, { partnerUserId: "pu_missing" })).rejects.toMatchObject({ code: "not_found" });
    expect(await countedInDatabase("pu_missing")).toBe(0);
  });

  it("the setting is a whole number from 1 to the maximum, or null; anything else is refused with the bounds and changes nothing", async () => {
    const integration = await f.integration();
    const update = (value: number | null) =>
      updateIntegration(f.db, {
        organizationId: integration.organizationId,
        slug: integration.slug,
        chatAnswersPerUserPerMinute: value,
      });
    for (const bad of [0, -1, 1.5, MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE + 1, Number.NaN]) {
      await expect(update(bad), String(bad)).rejects.toMatchObject({
        code: "invalid_request",
        field: "chat_answers_per_user_per_minute",
        message: `Chat answers per user per minute must be a whole number from 1 to ${MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE} (or the default, ${DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE}).`,
      });
    }
    expect((await update(MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE)).chatAnswersPerUserPerMinute).toBe(
      MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE,
    );
    expect((await update(1)).chatAnswersPerUserPerMinute).toBe(1);
    expect((await update(null)).chatAnswersPerUserPerMinute).toBeNull();
    await expect(
      createIntegration(f.db, {
        organizationId: integration.organizationId,
        slug: "too-generous",
        chatAnswersPerUserPerMinute: 0,
      }),
    ).rejects.toMatchObject({
      field: "chat_answers_per_user_per_minute",
    });
    expect(
      (
        await createIntegration(f.db, {
          organizationId: integration.organizationId,
          slug: "set-at-creation",
          chatAnswersPerUserPerMinute: 9,
        })
      ).chatAnswersPerUserPerMinute,
    ).toBe(9);
  });
});
