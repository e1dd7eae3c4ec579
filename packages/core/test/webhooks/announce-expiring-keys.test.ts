import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { openDatabase } from "../../src/db/database";
import { createApiKey } from "../../src/keys/api-keys";
import { rollApiKey } from "../../src/keys/roll-api-key";
import { createOrganization } from "../../src/orgs/organizations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";
import { announceExpiringKeys } from "../../src/webhooks/announce-expiring-keys";
import { planOf, recordingDatabase, seqScanned } from "../support/database-probes";

/** The `key.expiring_soon` event (issue 25): once per key and expiry, whichever instance sweeps. */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

const DAY = 24 * 60 * 60 * 1000;

async function expiringEvents(organizationId: string) {
  const { rows } = await t.db.sql.query<{ key: { id: string; expiresAt: string; name: string; lastFour: string } }>(
    "SELECT data->'key' AS key FROM events WHERE type = 'key.expiring_soon' AND organization_id = $1 ORDER BY created_at, id",
    [organizationId],
  );
  return rows.map((row) => row.key);
}

describe("announceExpiringKeys", () => {
  it("announces a key within 7 days of its expiry once, not one further out, never its secret", async () => {
    const org = await createOrganization(t.db, { name: "Expiring Lending" });
    const soon = await createApiKey(t.db, {
      organizationId: org.id,
      name: "soon",
      scopes: "chat:read",
      expiresAt: new Date(Date.now() + 3 * DAY),
    });
    await createApiKey(t.db, {
      organizationId: org.id,
      name: "later",
      scopes: "chat:read",
      expiresAt: new Date(Date.now() + 30 * DAY),
    });
    await createApiKey(t.db, { organizationId: org.id, name: "never", scopes: "chat:read" });

    await announceExpiringKeys(t.db);
    await announceExpiringKeys(t.db);
    const events = await expiringEvents(org.id);
    expect(events).toEqual([
      { id: soon.key.id, name: "soon", lastFour: soon.key.lastFour, expiresAt: soon.key.expiresAt?.toISOString() },
    ]);
    expect(JSON.stringify(events)).not.toContain(soon.plaintext);
  });

  it("two instances sweeping at once record each key once", async () => {
    const org = await createOrganization(t.db, { name: "Racing Lending" });
    for (let i = 0; i < 20; i++)
      await createApiKey(t.db, {
        organizationId: org.id,
        name: `racing ${i}`,
        scopes: "chat:read",
        expiresAt: new Date(Date.now() + 2 * DAY),
      });
    const [a, b] = [openDatabase(t.url, { secrets: t.db.secrets }), openDatabase(t.url, { secrets: t.db.secrets })];
    try {
      await Promise.all(Array.from({ length: 8 }, (_, i) => announceExpiringKeys(i % 2 ? a : b)));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect(await expiringEvents(org.id)).toHaveLength(20);
  });

  it("announces again when a roll brings the expiry forward", async () => {
    const org = await createOrganization(t.db, { name: "Rolling Lending" });
    const key = await createApiKey(t.db, {
      organizationId: org.id,
      name: "rolling",
      scopes: "chat:read",
      expiresAt: new Date(Date.now() + 5 * DAY),
    });
    await announceExpiringKeys(t.db);
    await rollApiKey(t.db, key.key.id, { oldKeyExpiresInSeconds: 3600 });
    await announceExpiringKeys(t.db);
    const events = await expiringEvents(org.id);
    expect(events.map((event) => event.id)).toEqual([key.key.id, key.key.id]);
    expect(Date.parse(events[1]?.expiresAt ?? "")).toBeLessThan(Date.now() + 2 * 3600_000);
  });

  it("finds the keys already announced by their ids, not by reading every event", async () => {
    // Every sweep asks; events holds 30 days of every organization's events.
    const org = await createOrganization(t.db, { name: "Indexed Lending" });
    await createApiKey(t.db, {
      organizationId: org.id,
      name: "soon",
      scopes: "chat:read",
      expiresAt: new Date(Date.now() + 2 * DAY),
    });
    const recording = recordingDatabase(t.url, t.db.secrets);
    await announceExpiringKeys(recording.db).finally(() => recording.db.close());
    const announced = recording.queries.find((query) => query.text.includes("FROM events"));
    if (!announced) throw new Error("the sweep asked no event this test knows");
    expect(seqScanned(await planOf(t.db, announced))).not.toContain("events");
  });
});
