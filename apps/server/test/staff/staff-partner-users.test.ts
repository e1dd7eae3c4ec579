import { beforeAll, describe, expect, it } from "vitest";

import { ALL_PARTNER_SCOPES } from "../support/partners";
import { ok, type StaffSession } from "../support/staff-client";
import { ADMIN, useStaffProcedures } from "../support/staff-procedures";

/** Staff procedures: partner users, their teams and imports, and the site-account outbox, checked through the procedures, the partner REST API and the site pages. */
const { setup, db, query, mutate, rows, rest, auditList, newOrg, newKey, sessions } = useStaffProcedures();
let admin: StaffSession;
let viewer: StaffSession;
beforeAll(() => {
  ({ admin, viewer } = sessions);
});

describe("partner users and the outbox", () => {
  const SLUG = "crm";
  let integrationId: string;
  let key: string;
  const put = (id: string, body: unknown) => rest("PUT", `/v1/integrations/${SLUG}/users/${id}`, key, body);
  const ref = (externalUserId: string) => ({ integration_id: integrationId, external_user_id: externalUserId });
  const getUser = async (externalUserId: string) =>
    ok(await query(viewer, "staff.partnerUsers.get", ref(externalUserId)));
  const waitForOperation = (externalUserId: string, operationId: string) =>
    expect
      .poll(
        async () =>
          (await getUser(externalUserId)).operations.find(
            (op: { operation_id: string }) => op.operation_id === operationId,
          )?.status,
        { timeout: 15_000, interval: 150 },
      )
      .toBe("completed");

  beforeAll(async () => {
    const org = await newOrg("Users Lender");
    integrationId = ok(await mutate(admin, "staff.integrations.create", { organization_id: org.id, slug: SLUG })).id;
    key = (await newKey(org.id, ALL_PARTNER_SCOPES)).plaintext;
    expect((await put("emp-1", { email: "Emp.One@Crm.test", name: "Emp One" })).status).toBe(201);
    expect((await put("emp-10", { email: "emp10@crm.test", name: "Emp Ten" })).status).toBe(201);
    expect((await put("emp-2", { email: "emp2@crm.test" })).status).toBe(201);
    expect((await put("other-7", { email: "other7@crm.test" })).status).toBe(201);
  });

  it("lists users with the q filter, whole-integration counts and cursor pages", async () => {
    const found = ok(await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, q: "EMP-1" }));
    expect(found.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual(["emp-1", "emp-10"]);
    expect(found.counts).toEqual({ total: 4, active: 4, disabled: 0, deleted: 0, pending: 0, failed: 0 });
    expect(found.next_cursor).toBeNull();
    // Staff see each user's email and name (issue 24, item 4); partners never read them back.
    expect(found.users.map((u: { contact: { email: string; name: string | null } }) => u.contact)).toEqual([
      { email: "emp.one@crm.test", name: "Emp One" },
      { email: "emp10@crm.test", name: "Emp Ten" },
    ]);
    expect((await rest("GET", `/v1/integrations/${SLUG}/users?q=emp-1`, key)).text).not.toMatch(/crm\.test|Emp One/i);

    const first = ok(await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, limit: 3 }));
    expect(first.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual([
      "emp-1",
      "emp-10",
      "emp-2",
    ]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = ok(
      await query(viewer, "staff.partnerUsers.list", {
        integration_id: integrationId,
        limit: 3,
        cursor: first.next_cursor,
      }),
    );
    expect(second.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual(["other-7"]);
    expect(second.next_cursor).toBeNull();
    expect(
      (
        await query(viewer, "staff.partnerUsers.list", {
          integration_id: integrationId,
          limit: 3,
          cursor: first.next_cursor,
          q: "emp",
        })
      ).status,
    ).toBe(400);
    expect(
      (await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, q: "emp.one@crm.test" })).status,
    ).toBe(400);
    expect((await query(viewer, "staff.partnerUsers.list", { integration_id: "int_missing" })).status).toBe(404);
  });

  it("get shows the contact details partners never read back, and the user's operations", async () => {
    const got = await getUser("emp-1");
    expect(got.contact).toEqual({ email: "emp.one@crm.test", name: "Emp One" });
    expect(got.user).toMatchObject({
      integration: SLUG,
      external_user_id: "emp-1",
      identity_origin: "partner_created",
      status: "active",
      provisioning_status: "active",
    });
    expect(got.operations).toEqual([]);
    const partnerView = await rest("GET", `/v1/integrations/${SLUG}/users/emp-1`, key);
    expect(partnerView.text).not.toContain("emp.one@crm.test");
    expect((await query(viewer, "staff.partnerUsers.get", ref("nobody"))).status).toBe(404);
  });

  it("siteAccountForEmail says whether an address has a site account and how many other integrations use it, naming none of them", async () => {
    const lookup = async (email: string) =>
      ok(await query(viewer, "staff.partnerUsers.siteAccountForEmail", { integration_id: integrationId, email }));
    expect(await lookup("nobody.yet@lookup.test")).toEqual({
      site_account_exists: false,
      other_integrations: 0,
      hosted_product: false,
    });
    // A user of this integration alone: no other integration uses the account.
    expect(await lookup("EMP.ONE@crm.test")).toEqual({
      site_account_exists: true,
      other_integrations: 0,
      hosted_product: false,
    });
    // Two other integrations (of another organization) link one partner-created account.
    const otherOrg = await newOrg("Lookup Lender");
    const otherKey = (await newKey(otherOrg.id, ALL_PARTNER_SCOPES)).plaintext;
    for (const slug of ["lookup-a", "lookup-b"]) {
      ok(await mutate(admin, "staff.integrations.create", { organization_id: otherOrg.id, slug }));
      expect(
        (await rest("PUT", `/v1/integrations/${slug}/users/lo-1`, otherKey, { email: "shared.person@lookup.test" }))
          .status,
      ).toBe(201);
    }
    const shared = ok(
      await query(admin, "staff.partnerUsers.siteAccountForEmail", {
        integration_id: integrationId,
        email: "Shared.Person@lookup.test",
      }),
    );
    expect(shared).toEqual({ site_account_exists: true, other_integrations: 2, hosted_product: false });
    expect(JSON.stringify(shared)).not.toMatch(/lookup|Lender|int_|org_/);
    // The hosted product's own account, used by no partner.
    await db().sql.query(
      "INSERT INTO site_accounts (id, email, origin) VALUES ('sa_lookup_self', 'own.account@lookup.test', 'self')",
    );
    expect(await lookup("own.account@lookup.test")).toEqual({
      site_account_exists: true,
      other_integrations: 0,
      hosted_product: true,
    });
    expect(
      (await query(viewer, "staff.partnerUsers.siteAccountForEmail", { integration_id: integrationId, email: "x" }))
        .status,
    ).toBe(400);
    expect(
      (
        await query(viewer, "staff.partnerUsers.siteAccountForEmail", {
          integration_id: "int_missing",
          email: "own.account@lookup.test",
        })
      ).status,
    ).toBe(404);
  });

  it("setStatus disables a user (the partner API shows it) and reactivates; both audited", async () => {
    const disabled = ok(await mutate(admin, "staff.partnerUsers.setStatus", { ...ref("emp-10"), status: "disabled" }));
    expect(disabled).toMatchObject({
      external_user_id: "emp-10",
      status: "disabled",
      access_version: 2,
      launch_eligibility: { can_launch: false, blocking_reasons: ["disabled"] },
    });
    expect((await rest("GET", `/v1/integrations/${SLUG}/users/emp-10`, key)).body.user).toMatchObject({
      status: "disabled",
      access_version: 2,
    });
    const listed = ok(
      await query(viewer, "staff.partnerUsers.list", { integration_id: integrationId, status: "disabled" }),
    );
    expect(listed.users.map((u: { external_user_id: string }) => u.external_user_id)).toEqual(["emp-10"]);
    expect(listed.counts).toMatchObject({ total: 4, active: 3, disabled: 1 });

    expect(ok(await mutate(admin, "staff.partnerUsers.setStatus", { ...ref("emp-10"), status: "active" })).status).toBe(
      "active",
    );
    expect((await rest("GET", `/v1/integrations/${SLUG}/users/emp-10`, key)).body.user.status).toBe("active");
    const entries = (await auditList({ action: "partner_user.", actor: ADMIN.email }))
      .filter((e) => e.target === `${SLUG}/emp-10`)
      .map((e) => e.action);
    expect([...entries].sort()).toEqual(["partner_user.disable", "partner_user.reactivate"]);
  });

  it("requestDeletion cuts access at once and deletes in the background; requestReprovision brings the user back", async () => {
    expect(
      (await mutate(admin, "staff.partnerUsers.requestReprovision", { ...ref("emp-2"), email: "emp2@crm.test" }))
        .status,
    ).toBe(409);
    const deletion = ok(
      await mutate(admin, "staff.partnerUsers.requestDeletion", { ...ref("emp-2"), note: "left (ticket 42)" }),
    );
    expect(deletion).toEqual({ operation_id: expect.stringMatching(/^op_/) });
    const partnerView = (await rest("GET", `/v1/integrations/${SLUG}/users/emp-2`, key)).body.user;
    expect(["disabled", "deleted"]).toContain(partnerView.status);
    expect(partnerView.lifecycle_operation).toMatchObject({ operation_id: deletion.operation_id, type: "deletion" });
    await waitForOperation("emp-2", deletion.operation_id);
    const deleted = await getUser("emp-2");
    expect(deleted.user.status).toBe("deleted");
    expect(deleted.contact).toEqual({ email: "", name: null });
    expect(deleted.operations.map((op: { operation_id: string; type: string }) => [op.operation_id, op.type])).toEqual([
      [deletion.operation_id, "deletion"],
    ]);
    const [audited] = (await auditList({ action: "partner_user.delete" })).filter((e) => e.target === `${SLUG}/emp-2`);
    expect(audited).toMatchObject({ actor: ADMIN.email, details: { operation_id: deletion.operation_id } });

    const reprovision = ok(
      await mutate(admin, "staff.partnerUsers.requestReprovision", {
        ...ref("emp-2"),
        email: "Emp2.Again@crm.test",
        name: "Emp Two",
      }),
    );
    expect(reprovision).toEqual({ operation_id: expect.stringMatching(/^op_/) });
    await waitForOperation("emp-2", reprovision.operation_id);
    const back = await getUser("emp-2");
    expect(back.user).toMatchObject({ status: "active", account_generation: 2, provisioning_status: "active" });
    expect(back.contact).toEqual({ email: "emp2.again@crm.test", name: "Emp Two" });
    expect(back.operations.map((op: { type: string }) => op.type)).toEqual(["reprovision", "deletion"]);
    const [reprovisioned] = (await auditList({ action: "partner_user.reprovision" })).filter(
      (e) => e.target === `${SLUG}/emp-2`,
    );
    expect(reprovisioned).toMatchObject({ actor: ADMIN.email, details: { operation_id: reprovision.operation_id } });
  });

  it("overrideProfile changes the profile with an audit entry naming the admin and the reason; partners never see the reason", async () => {
    expect(
      (await mutate(admin, "staff.partnerUsers.overrideProfile", { ...ref("other-7"), name: "X", reason: "  " }))
        .status,
    ).toBe(400);
    const operation = ok(
      await mutate(admin, "staff.partnerUsers.overrideProfile", {
        ...ref("other-7"),
        name: "Renamed Person",
        reason: "support ticket 77",
      }),
    );
    expect(operation).toMatchObject({
      operation_id: expect.stringMatching(/^op_/),
      type: "profile_change",
      user: { integration: SLUG, external_user_id: "other-7" },
    });
    const [audited] = (await auditList({ action: "partner_user.profile_override" })).filter(
      (e) => e.target === `${SLUG}/other-7`,
    );
    expect(audited).toMatchObject({
      actor: ADMIN.email,
      action: "partner_user.profile_override",
      details: {
        operation_id: operation.operation_id,
        reason: "support ticket 77",
        fields: ["name"],
        name: { to: "Renamed Person" },
      },
    });
    // The audit entry names the organization of its target (issue 24, item 15).
    expect(audited?.organization).toEqual({ id: expect.stringMatching(/^org_/), name: expect.any(String) });
    await waitForOperation("other-7", operation.operation_id);
    expect((await getUser("other-7")).contact).toEqual({ email: "other7@crm.test", name: "Renamed Person" });
    const partnerView = await rest("GET", `/v1/integrations/${SLUG}/user-operations/${operation.operation_id}`, key);
    expect(partnerView.body.operation.status).toBe("completed");
    expect(partnerView.text).not.toMatch(/ticket 77|ana@mga/);
  });

  it("outbox.list gives admins the password-setup link of a partner-created user, which works once; viewers do not get it", async () => {
    // A live link lets its holder set the account's password, so a read-only viewer sees only that there is one.
    expect(ok(await query(viewer, "staff.outbox.list", { email: " EMP.ONE@crm.test " })).notifications).toEqual([
      {
        id: expect.stringMatching(/^ntf_/),
        kind: "password_setup",
        recipient: "emp.one@crm.test",
        created_at: expect.any(String),
        used: false,
        link: null,
        link_hidden: true,
      },
    ]);
    const outbox = ok(await query(admin, "staff.outbox.list", { email: " EMP.ONE@crm.test " })).notifications;
    expect(outbox).toEqual([
      {
        id: expect.stringMatching(/^ntf_/),
        kind: "password_setup",
        recipient: "emp.one@crm.test",
        created_at: expect.any(String),
        used: false,
        link: expect.stringMatching(
          new RegExp(`^${setup.app.baseUrl.replace(/[.]/g, "\\.")}/site/password-setup#token=[A-Za-z0-9_-]+$`),
        ),
        link_hidden: false,
      },
    ]);
    const link = new URL(outbox[0].link);
    expect((await fetch(link)).status).toBe(200);
    const form = new URLSearchParams({
      token: new URLSearchParams(link.hash.slice(1)).get("token") as string,
      password: "a new password 1",
    });
    const set = await fetch(`${setup.app.baseUrl}/site/password-setup`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
    });
    expect(set.status).toBe(200);
    expect(ok(await query(viewer, "staff.outbox.list", { email: "emp.one@crm.test" })).notifications[0].used).toBe(
      true,
    );

    // A user matched to an existing site account gets no notification.
    await rows("INSERT INTO site_accounts (id, email, origin) VALUES ('sa_known_crm', 'known@crm.test', 'self')");
    expect((await put("known", { email: "known@crm.test" })).body.user.identity_origin).toBe("existing_mg");
    expect(ok(await query(viewer, "staff.outbox.list", { email: "known@crm.test" }))).toEqual({
      notifications: [],
      next_cursor: null,
      previous_cursor: null,
      total: 0,
    });
    const all = ok(await query(viewer, "staff.outbox.list", { limit: 200 })).notifications;
    expect(
      all
        .filter((n: { recipient: string }) => n.recipient.endsWith("@crm.test"))
        .map((n: { recipient: string }) => n.recipient)
        .sort(),
    ).toEqual(
      // emp-10 was disabled (its link withdrawn with the lock) and reactivated before choosing a password: a second link.
      [
        "emp.one@crm.test",
        "emp10@crm.test",
        "emp10@crm.test",
        "emp2.again@crm.test",
        "emp2@crm.test",
        "other7@crm.test",
      ].sort(),
    );
  });

  it("outbox.list and partnerImports.list page newest first with cursors bound to their filters", async () => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = ok(await query(viewer, "staff.outbox.list", { limit: 2, ...(cursor ? { cursor } : {}) }));
      pages.push(page.notifications.map((n: { id: string }) => n.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    const everything = ok(await query(viewer, "staff.outbox.list", { limit: 200 })).notifications.map(
      (n: { id: string }) => n.id,
    );
    expect(pages.flat()).toEqual(everything);
    expect(pages.length).toBe(Math.ceil(everything.length / 2));
    const first = ok(await query(viewer, "staff.outbox.list", { limit: 1 }));
    const refused = await query(viewer, "staff.outbox.list", {
      limit: 1,
      email: "emp.one@crm.test",
      cursor: first.next_cursor,
    });
    expect({ status: refused.status, message: refused.error?.message }).toEqual({
      status: 400,
      message: "cursor: pass next_cursor with the same filters as the request that returned it",
    });

    const key = await newKey((await newOrg("Imports Lender")).id, ["embed:users:write", "embed:users:read"]);
    const integration = ok(
      await mutate(admin, "staff.integrations.create", {
        organization_id: key.key.organization_id,
        slug: "imports-los",
      }),
    );
    const jobs: string[] = [];
    for (const n of [1, 2, 3]) {
      const started = await rest(
        "POST",
        "/v1/integrations/imports-los/user-imports",
        key.plaintext,
        { users: [{ external_user_id: `imp-${n}`, email: `imp${n}@imports.test` }] },
        {
          "Idempotency-Key": `paging-import-${n}`,
        },
      );
      expect(started.status, started.text).toBe(202);
      jobs.push(started.body.import.job_id);
    }
    const firstPage = ok(
      await query(viewer, "staff.partnerImports.list", { integration_id: integration.id, limit: 2 }),
    );
    expect(firstPage.imports.map((job: { job_id: string }) => job.job_id)).toEqual([jobs[2], jobs[1]]);
    const secondPage = ok(
      await query(viewer, "staff.partnerImports.list", {
        integration_id: integration.id,
        limit: 2,
        cursor: firstPage.next_cursor,
      }),
    );
    expect(secondPage).toEqual({
      imports: [expect.objectContaining({ job_id: jobs[0] })],
      next_cursor: null,
      previous_cursor: expect.any(String),
      total: 3,
    });
    // Back from the second page without any earlier cursor: the first page again, newest first.
    const back = ok(
      await query(viewer, "staff.partnerImports.list", {
        integration_id: integration.id,
        limit: 2,
        cursor: secondPage.previous_cursor,
      }),
    );
    expect(back.imports.map((job: { job_id: string }) => job.job_id)).toEqual([jobs[2], jobs[1]]);
    expect(back).toMatchObject({ previous_cursor: null, next_cursor: expect.any(String), total: 3 });
  });

  it("partnerTeams.list searches external ids and names in any case, together with the status filter", async () => {
    const key = await newKey((await newOrg("Teams Lender")).id, ["embed:teams:read", "embed:teams:write"]);
    const integration = ok(
      await mutate(admin, "staff.integrations.create", { organization_id: key.key.organization_id, slug: "teams-los" }),
    );
    for (const [id, name] of [
      ["loan-officers", "Loan Officers"],
      ["uw", "Underwriting"],
      ["closers", "Closing team"],
    ]) {
      expect((await rest("PUT", `/v1/integrations/teams-los/teams/${id}`, key.plaintext, { name })).status).toBe(201);
    }
    expect(
      (await rest("PATCH", "/v1/integrations/teams-los/teams/closers", key.plaintext, { status: "archived" })).status,
    ).toBe(200);
    const search = async (filters: Record<string, string>) =>
      ok(await query(viewer, "staff.partnerTeams.list", { integration_id: integration.id, ...filters })).teams.map(
        (team: { external_team_id: string }) => team.external_team_id,
      );
    expect(await search({ q: "OFFICER" })).toEqual(["loan-officers"]);
    expect(await search({ q: "writing" })).toEqual(["uw"]);
    expect(await search({ q: "team" })).toEqual(["closers"]);
    expect(await search({ q: "team", status: "active" })).toEqual([]);
    expect(await search({})).toEqual(["loan-officers", "uw", "closers"]);
  });
});
