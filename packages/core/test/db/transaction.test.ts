import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { recordAudit } from "../../src/audit/audit-log";
import { type Database } from "../../src/db/database";
import { withTransaction } from "../../src/db/transaction";
import { createOrganization } from "../../src/orgs/organizations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

const auditCount = async (target: string) =>
  (await t.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE target = $1", [target])).rows[0]
    ?.n;
const orgCount = async (name: string) =>
  (await t.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM organizations WHERE name = $1", [name])).rows[0]
    ?.n;
const txid = async (db: Database) =>
  (await db.sql.query<{ id: string }>("SELECT txid_current()::text AS id")).rows[0]?.id;

describe("withTransaction", () => {
  it("commits a domain write and its audit entry together, invisible to others until then", async () => {
    await withTransaction(t.db, async (tx) => {
      const org = await createOrganization(tx, { name: "Committed Lending" });
      await recordAudit(tx, { actor: "test", action: "org.create", target: org.id });
      // Another connection (the pool) does not see the uncommitted rows.
      expect(await orgCount("Committed Lending")).toBe(0);
    });
    const { rows } = await t.db.sql.query<{ id: string }>(
      "SELECT id FROM organizations WHERE name = 'Committed Lending'",
    );
    expect(rows).toHaveLength(1);
    expect(await auditCount(rows[0]?.id as string)).toBe(1);
  });

  it("rolls back the domain write and its audit entry when the work fails", async () => {
    let orgId = "";
    await expect(
      withTransaction(t.db, async (tx) => {
        orgId = (await createOrganization(tx, { name: "Rolled Back Lending" })).id;
        await recordAudit(tx, { actor: "test", action: "org.create", target: orgId });
        throw new Error("refused after the writes");
      }),
    ).rejects.toThrow("refused after the writes");
    expect(orgId).not.toBe("");
    expect(await orgCount("Rolled Back Lending")).toBe(0);
    expect(await auditCount(orgId)).toBe(0);
  });

  it("called with a tx, joins that transaction instead of beginning another", async () => {
    await expect(
      withTransaction(t.db, async (tx) => {
        const outer = await txid(tx);
        await createOrganization(tx, { name: "Joined Lending" });
        await withTransaction(tx, async (inner) => {
          expect(await txid(inner)).toBe(outer);
          await recordAudit(inner, { actor: "test", action: "org.create", target: "joined" });
        });
        // The inner call did not commit anything on its own.
        expect(await auditCount("joined")).toBe(0);
        throw new Error("outer fails after the inner call returned");
      }),
    ).rejects.toThrow("outer fails");
    expect(await orgCount("Joined Lending")).toBe(0);
    expect(await auditCount("joined")).toBe(0);
  });

  it("runs outside any transaction on the pool: each statement commits at once", async () => {
    expect(await txid(t.db)).not.toBe(await txid(t.db));
  });

  it("refuses a Database that openDatabase did not make", async () => {
    const fake: Database = { ...t.db, instance: { ...t.db.instance, pool: undefined } };
    await expect(withTransaction(fake, async () => 1)).rejects.toThrow("openDatabase");
  });
});
