import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { openDatabase, type Database } from "../../src/db/database";
import { createApiKey } from "../../src/keys/api-keys";
import { authenticateApiKey } from "../../src/keys/authenticate-api-key";
import { flushKeyUsage, KEY_USAGE_FLUSH_MS } from "../../src/keys/key-usage";
import { startKeyCache, type RunningKeyCache } from "../../src/keys/start-key-cache";
import { createOrganization } from "../../src/orgs/organizations";
import { createTestDatabase, TEST_SECRETS, type TestDatabase } from "../../src/testing/index";
import { recordStatements } from "../support/database-probes";

/** last_used_at (issue 14 item 3): recorded in memory, written in batches, never on the request path. */
let t: TestDatabase;
/** An instance with a key cache, whose statements are recorded. */
let db: Database;
let cache: RunningKeyCache;
let statements: string[];

beforeAll(async () => {
  t = await createTestDatabase();
  db = openDatabase(t.url, { secrets: TEST_SECRETS, maxConnections: 3 });
  statements = recordStatements(db);
  cache = startKeyCache(db, t.url);
  await cache.ready;
});
afterAll(async () => {
  await cache.stop();
  await db.close();
  await t.drop();
});

async function newKeys(count: number) {
  const org = await createOrganization(t.db, { name: "Busy Lending" });
  const keys = [];
  for (let i = 0; i < count; i += 1) {
    const { key, plaintext } = await createApiKey(t.db, {
      organizationId: org.id,
      name: `k${i}`,
      scopes: ["chat:read"],
    });
    keys.push({ id: key.id, plaintext });
  }
  return keys;
}

const lastUsed = async (ids: string[]) =>
  (
    await t.db.sql.query<{ id: string; last_used_at: Date | null }>(
      "SELECT id, last_used_at FROM api_keys WHERE id = ANY($1) ORDER BY id",
      [ids],
    )
  ).rows.map((row) => row.last_used_at);

const writes = () => statements.filter((text) => /UPDATE\s+api_keys/i.test(text));

describe("last_used_at", () => {
  it("many requests write nothing on their path; one flush writes every key used in one UPDATE", async () => {
    const keys = await newKeys(3);
    const before = new Date();
    statements.length = 0;
    for (let round = 0; round < 20; round += 1) for (const key of keys) await authenticateApiKey(db, key.plaintext);
    expect(writes()).toEqual([]);
    expect(await lastUsed(keys.map((k) => k.id))).toEqual([null, null, null]);

    await flushKeyUsage(db);
    expect(writes()).toHaveLength(1);
    for (const at of await lastUsed(keys.map((k) => k.id))) {
      expect(at).toBeInstanceOf(Date);
      expect((at as Date).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
      expect((at as Date).getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    }
    // Nothing new since: the next flush writes nothing.
    await flushKeyUsage(db);
    expect(writes()).toHaveLength(1);
  });

  it("is written by itself within the flush interval", async () => {
    const [key] = await newKeys(1);
    await authenticateApiKey(db, key!.plaintext);
    const deadline = Date.now() + KEY_USAGE_FLUSH_MS + 2_000;
    while ((await lastUsed([key!.id]))[0] === null) {
      if (Date.now() > deadline) throw new Error("last_used_at was not written within the flush interval");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it("never moves back (another instance may have written a later use first)", async () => {
    const [key] = await newKeys(1);
    await authenticateApiKey(db, key!.plaintext);
    const later = new Date(Date.now() + 60_000);
    await t.db.sql.query("UPDATE api_keys SET last_used_at = $2 WHERE id = $1", [key!.id, later]);
    await flushKeyUsage(db);
    expect((await lastUsed([key!.id]))[0]?.getTime()).toBe(later.getTime());
  });
});
