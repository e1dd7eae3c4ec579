import { beforeAll, describe, expect, it } from "vitest";

import { createStaff } from "@mga/core/staff";

import { ALL_PARTNER_SCOPES } from "../support/partners";
import { ok, type StaffSession } from "../support/staff-client";
import { useStaffProcedures } from "../support/staff-procedures";

/** Staff procedures: the audit log's filters and cursor pages. */
const { db, trpc, query, mutate, signIn, rest, auditList, newOrg, newKey, sessions } = useStaffProcedures();
let admin: StaffSession;
let viewer: StaffSession;
beforeAll(() => {
  ({ admin, viewer } = sessions);
});

// The action-prefix filter below needs partner-user entries in this file's own database: an
// admin disables and reactivates a partner user (both audited as partner_user.*).
beforeAll(async () => {
  const org = await newOrg("Audit Lender");
  const integration = ok(
    await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: "audit-los" }),
  );
  const key = await newKey(org.id, ALL_PARTNER_SCOPES);
  expect(
    (await rest("PUT", "/v1/integrations/audit-los/users/audit-1", key.plaintext, { email: "audit-1@audit.test" }))
      .status,
  ).toBe(201);
  for (const status of ["disabled", "active"]) {
    ok(
      await mutate(admin, "staff.partnerUsers.setStatus", {
        integration_id: integration.id,
        external_user_id: "audit-1",
        status,
      }),
    );
  }
});

describe("audit log", () => {
  it("filters by actor and by action prefix, newest first, and pages with a cursor bound to the filters", async () => {
    await createStaff(db(), {
      email: "auditor@mga.test",
      password: "auditor password 1",
      role: "admin",
      actor: "test",
    });
    const auditor = await signIn("auditor@mga.test", "auditor password 1");
    const ids: string[] = [];
    for (let i = 1; i <= 5; i += 1)
      ids.push(ok(await mutate(auditor, "staff.organizations.create", { name: `Audit page ${i}` })).id);

    const byAuditor = await auditList({ actor: "auditor@mga.test" });
    expect(byAuditor.map((e) => e.action).sort()).toEqual([
      "organization.create",
      "organization.create",
      "organization.create",
      "organization.create",
      "organization.create",
      "staff.sign_in",
    ]);
    expect(byAuditor.every((e) => e.actor === "auditor@mga.test")).toBe(true);

    const filter = { actor: "auditor@mga.test", action: "organization." };
    const all = await auditList(filter);
    expect(all.map((e) => e.target).sort()).toEqual([...ids].sort());
    expect(all.map((e) => e.details.name).sort()).toEqual([
      "Audit page 1",
      "Audit page 2",
      "Audit page 3",
      "Audit page 4",
      "Audit page 5",
    ]);
    const times = all.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = ok(await query(viewer, "staff.audit.list", { ...filter, limit: 2, ...(cursor ? { cursor } : {}) }));
      pages.push(page.entries.map((e: { id: string }) => e.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.map((e) => e.id));

    const firstPage = ok(await query(viewer, "staff.audit.list", { ...filter, limit: 2 }));
    expect(
      (
        await query(viewer, "staff.audit.list", {
          actor: "auditor@mga.test",
          action: "staff.",
          limit: 2,
          cursor: firstPage.next_cursor,
        })
      ).status,
    ).toBe(400);
    expect((await query(viewer, "staff.audit.list", { ...filter, limit: 2, cursor: "not-a-cursor" })).status).toBe(400);

    const prefixed = await auditList({ action: "partner_user." });
    expect(prefixed.length).toBeGreaterThan(0);
    expect(prefixed.every((e) => e.action.startsWith("partner_user."))).toBe(true);
    expect(await auditList({ action: "organization.create", actor: "nobody@mga.test" })).toEqual([]);
  });
});

describe("staff sign-in and sign-out", () => {
  it("a sign-in's session and its audit row commit together", async () => {
    await createStaff(db(), {
      email: "unaudited@mga.test",
      password: "unaudited password 1",
      role: "viewer",
      actor: "test",
    });
    await db().sql.query(
      `CREATE FUNCTION refuse_sign_in_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit row refused'; END $$`,
    );
    await db().sql.query(
      `CREATE TRIGGER refuse_sign_in_audit BEFORE INSERT ON audit_log FOR EACH ROW WHEN (NEW.action = 'staff.sign_in' AND NEW.actor = 'unaudited@mga.test') EXECUTE FUNCTION refuse_sign_in_audit()`,
    );
    try {
      const res = await trpc("staff.signIn", {
        mutation: true,
        input: { email: "unaudited@mga.test", password: "unaudited password 1" },
      });
      expect({ data: res.data, cookie: res.setCookie }).toEqual({ data: undefined, cookie: null });
    } finally {
      await db().sql.query("DROP TRIGGER refuse_sign_in_audit ON audit_log");
    }
    const { rows } = await db().sql.query(
      "SELECT s.id FROM staff_sessions s JOIN staff_accounts a ON a.id = s.staff_id WHERE a.email = 'unaudited@mga.test'",
    );
    expect(rows).toEqual([]);
  });

  it("is audited with the session it ends, once", async () => {
    await createStaff(db(), { email: "leaver@mga.test", password: "leaver password 1", role: "viewer", actor: "test" });
    const leaver = await signIn("leaver@mga.test", "leaver password 1");
    const me = ok(await query(leaver, "staff.me"));
    expect(me.email).toBe("leaver@mga.test");
    expect(ok(await mutate(leaver, "staff.signOut"))).toEqual({ signed_out: true });
    // The ended session cannot sign out again, so no second entry.
    expect((await mutate(leaver, "staff.signOut")).status).toBe(401);
    const entries = await auditList({ actor: "leaver@mga.test", action: "staff.sign_out" });
    const { id } = (
      await db().sql.query<{ id: string }>("SELECT id FROM staff_accounts WHERE email = 'leaver@mga.test'")
    ).rows[0] as { id: string };
    expect(entries).toEqual([
      expect.objectContaining({ actor: "leaver@mga.test", action: "staff.sign_out", target: id }),
    ]);
  });
});
