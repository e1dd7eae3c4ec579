import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { withAudit } from "../../src/audit/audited-change";
import { createOrganization } from "../../src/orgs/organizations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  // Stands for any failure to write the row (a full disk, a constraint): the insert raises.
  await t.db.sql.query(
    `CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit row refused'; END $$`,
  );
  await t.db.sql.query(
    `CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW WHEN (NEW.action = 'refused.action') EXECUTE FUNCTION refuse_audit()`,
  );
});
afterAll(async () => {
  await t.drop();
});

const orgCount = async (name: string) =>
  (await t.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM organizations WHERE name = $1", [name])).rows[0]
    ?.n;
const auditOf = async (target: string) =>
  (
    await t.db.sql.query<{ actor: string; action: string; details: unknown }>(
      "SELECT actor, action, details FROM audit_log WHERE target = $1",
      [target],
    )
  ).rows;

describe("withAudit", () => {
  it("commits the change with its audit row, described from the change's result", async () => {
    const org = await withAudit(
      t.db,
      "staff@mga.test",
      (tx) => createOrganization(tx, { name: "Audited Lending" }),
      (created) => ({ action: "organization.create", target: created.id, details: { name: created.name } }),
    );
    expect(await orgCount("Audited Lending")).toBe(1);
    expect(await auditOf(org.id)).toEqual([
      { actor: "staff@mga.test", action: "organization.create", details: { name: "Audited Lending" } },
    ]);
  });

  it("rolls the change back when its audit row cannot be written", async () => {
    let orgId = "";
    await expect(
      withAudit(
        t.db,
        "staff@mga.test",
        async (tx) => {
          const org = await createOrganization(tx, { name: "Unaudited Lending" });
          orgId = org.id;
          return org;
        },
        (created) => ({ action: "refused.action", target: created.id }),
      ),
    ).rejects.toThrow("audit row refused");
    expect(orgId).not.toBe("");
    expect(await orgCount("Unaudited Lending")).toBe(0);
    expect(await auditOf(orgId)).toEqual([]);
  });

  it("writes no row when the change fails", async () => {
    await expect(
      withAudit(
        t.db,
        "staff@mga.test",
        () => createOrganization(t.db, { name: " " }),
        () => ({ action: "organization.create", target: "never" }),
      ),
    ).rejects.toThrow("name");
    expect(await auditOf("never")).toEqual([]);
  });
});
