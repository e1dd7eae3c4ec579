import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createStaff, inviteStaff, setStaffRole, STAFF_INVITE_HOURS, type StaffMember } from "@mga/core/staff";

import { ok, staffClient, type StaffSession } from "../support/staff-client";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * Staff managing staff over /trpc, as the console does: invitation links (single use,
 * 72 hours, only a hash stored), role changes and disabling colleagues, and the rule that
 * nobody changes their own account, so the console always keeps an admin.
 */
let app: TestApp;
let admin: StaffSession;
const ADMIN = { email: "ana@mga.test", password: "admin password 1" };

beforeAll(async () => {
  app = await startTestApp();
  await createStaff(app.t.db, { ...ADMIN, role: "admin", actor: "test" });
  admin = await signIn(ADMIN.email, ADMIN.password);
});
afterAll(() => app.close());

const { trpc, signIn, query, mutate } = staffClient(() => app.adminUrl);
const rows = async (sql: string, params: unknown[] = []) => (await app.t.db.sql.query(sql, params)).rows;
const describeInvite = (token: string) => trpc("staff.invitations.describe", { input: { token } });
const accept = (token: string, password: string) =>
  trpc("staff.invitations.accept", { mutation: true, input: { token, password } });
const invite = async (email: string, role: "admin" | "viewer") =>
  ok(await mutate(admin, "staff.members.invite", { email, role })) as {
    invite: { id: string; email: string; role: string; expires_at: string };
    token: string;
  };
const auditOf = async (action: string) =>
  rows("SELECT actor, target, details FROM audit_log WHERE action = $1 ORDER BY created_at", [action]);

describe("invitation links", () => {
  it("an admin invites a colleague; the link works once, creates the account with the invited role, and only its hash is stored", async () => {
    const { invite: created, token } = await invite("  Vic@MGA.test ", "viewer");
    expect(created).toMatchObject({ email: "vic@mga.test", role: "viewer" });
    expect(Date.parse(created.expires_at) - Date.now()).toBeGreaterThan((STAFF_INVITE_HOURS - 1) * 3600_000);
    expect(JSON.stringify(await rows("SELECT * FROM staff_invites"))).not.toContain(token);
    expect(JSON.stringify(await rows("SELECT * FROM audit_log"))).not.toContain(token);

    expect(ok(await describeInvite(token))).toEqual({
      email: "vic@mga.test",
      role: "viewer",
      expires_at: created.expires_at,
    });
    const short = await accept(token, "short");
    expect(short.status).toBe(400);
    expect(short.error?.message).toBe("password: at least 12 characters");
    // Staff passwords follow the one password rule: long enough is not enough when it is a common one.
    const common = await accept(token, "qwertyuiop123");
    expect(common.status).toBe(400);
    expect(common.error?.message).toMatch(/^password: too easy to guess/);
    expect(await rows("SELECT id FROM staff_accounts WHERE email = 'vic@mga.test'")).toEqual([]);

    expect(ok(await accept(token, "viewer password 1"))).toEqual({ email: "vic@mga.test", role: "viewer" });
    const vic = await signIn("vic@mga.test", "viewer password 1");
    expect(ok(await query(vic, "staff.me"))).toMatchObject({ email: "vic@mga.test", role: "viewer" });
    expect((await mutate(vic, "staff.organizations.create", { name: "Not as a viewer" })).status).toBe(403);

    const again = await accept(token, "another password 1");
    expect({ status: again.status, message: again.error?.message }).toEqual({
      status: 404,
      message: "this invitation was already used; sign in instead",
    });
    expect((await describeInvite(token)).status).toBe(404);
    const listed = ok(await query(vic, "staff.members.list"));
    expect(listed.invites.map((i: { email: string }) => i.email)).not.toContain("vic@mga.test");
    expect(listed.members.find((m: { email: string }) => m.email === "vic@mga.test")).toMatchObject({
      role: "viewer",
      status: "active",
      last_sign_in_at: expect.any(String),
    });

    expect(await auditOf("staff.invite")).toContainEqual({
      actor: ADMIN.email,
      target: created.id,
      details: { email: "vic@mga.test", role: "viewer" },
    });
    const [accepted] = (await auditOf("staff.invite_accept")).filter((entry) => entry.actor === "vic@mga.test");
    expect(accepted).toMatchObject({ details: { invite_id: created.id, role: "viewer", invited_by: ADMIN.email } });
  });

  it("a link stops working after 72 hours, when a newer one is made for the same email, or when an admin withdraws it", async () => {
    const longAgo = new Date(Date.now() - (STAFF_INVITE_HOURS + 1) * 3600_000);
    const expired = await inviteStaff(
      app.t.db,
      { email: "late@mga.test", role: "viewer", actor: ADMIN.email },
      longAgo,
    );
    expect((await describeInvite(expired.token)).error?.message).toBe(
      "this invitation has expired; ask an admin for a new one",
    );
    expect((await accept(expired.token, "late password 1")).status).toBe(404);

    const first = await invite("twice@mga.test", "viewer");
    const second = await invite("twice@mga.test", "admin");
    expect((await describeInvite(first.token)).error?.message).toBe(
      "this invitation was withdrawn; ask an admin for a new one",
    );
    expect(ok(await describeInvite(second.token))).toMatchObject({ role: "admin" });
    const pending = ok(await query(admin, "staff.members.list")).invites.filter(
      (i: { email: string }) => i.email === "twice@mga.test",
    );
    expect(pending.map((i: { id: string }) => i.id)).toEqual([second.invite.id]);

    expect(ok(await mutate(admin, "staff.members.revokeInvite", { id: second.invite.id }))).toEqual({ revoked: true });
    expect((await accept(second.token, "twice password 1")).status).toBe(404);
    expect((await mutate(admin, "staff.members.revokeInvite", { id: second.invite.id })).status).toBe(404);
    expect(await rows("SELECT id FROM staff_accounts WHERE email IN ('late@mga.test', 'twice@mga.test')")).toEqual([]);
    expect((await describeInvite("x".repeat(43))).error?.message).toBe(
      "this invitation link is not valid; ask an admin for a new one",
    );
  });

  it("refuses an invitation for someone who already has an account, a bad email or role, and unknown fields (400)", async () => {
    for (const input of [
      { email: ADMIN.email, role: "viewer" },
      { email: "not an email", role: "viewer" },
      { email: "someone@mga.test", role: "owner" },
      { email: "someone@mga.test", role: "viewer", token: "chosen" },
    ]) {
      expect((await mutate(admin, "staff.members.invite", input)).status, JSON.stringify(input)).toBe(400);
    }
    expect(await rows("SELECT id FROM staff_invites WHERE email = 'someone@mga.test'")).toEqual([]);
  });

  it("checks the link before the password, and throttles attempts per address", async () => {
    // A made-up token is refused as a bad link whatever the password: no password rule or hash is spent on it.
    const attempt = (i: number, password: string) =>
      trpc("staff.invitations.accept", {
        mutation: true,
        input: { token: `made-up-token-number-${i}`, password },
        address: "198.51.100.200",
      });
    const first = await attempt(0, "short");
    expect(first.status).toBe(404);
    const results = await Promise.all(Array.from({ length: 21 }, (_, i) => attempt(i + 1, "x".repeat(200))));
    expect(results.filter((res) => res.status === 404)).toHaveLength(19);
    expect(results.filter((res) => res.status === 429)).toHaveLength(2);
  });

  it("two simultaneous uses of one link create one account", async () => {
    const { token } = await invite("race@mga.test", "viewer");
    const results = await Promise.all([accept(token, "race password 1"), accept(token, "race password 2")]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 404]);
    expect(await rows("SELECT id FROM staff_accounts WHERE email = 'race@mga.test'")).toHaveLength(1);
    expect((await auditOf("staff.invite_accept")).filter((entry) => entry.actor === "race@mga.test")).toHaveLength(1);
  });
});

describe("an invitation carries its inviter's authority (issue 21, item 3)", () => {
  /** Admin R, signed in, invites S as an admin. */
  async function invitedByR(r: string, s: string) {
    await createStaff(app.t.db, { email: r, password: "inviter password 1", role: "admin", actor: "test" });
    const inviter = await signIn(r, "inviter password 1");
    const { token, invite: created } = ok(
      await mutate(inviter, "staff.members.invite", { email: s, role: "admin" }),
    ) as { token: string; invite: { id: string } };
    const inviterId = (await rows("SELECT id FROM staff_accounts WHERE email = $1", [r]))[0].id as string;
    return { token, inviteId: created.id, inviterId };
  }
  const withdrawn = { status: 404, message: "this invitation was withdrawn; ask an admin for a new one" };
  const outcome = (res: { status: number; error?: { message: string } | undefined }) => ({
    status: res.status,
    message: res.error?.message,
  });

  it("disabling the inviter withdraws the invitations they issued: S cannot become an admin", async () => {
    const { token, inviteId, inviterId } = await invitedByR("r-disabled@mga.test", "s-disabled@mga.test");
    ok(await mutate(admin, "staff.members.setStatus", { id: inviterId, status: "disabled" }));
    expect(outcome(await describeInvite(token))).toEqual(withdrawn);
    expect(outcome(await accept(token, "s password is long 1"))).toEqual(withdrawn);
    expect(await rows("SELECT id FROM staff_accounts WHERE email = 's-disabled@mga.test'")).toEqual([]);
    expect(ok(await query(admin, "staff.members.list")).invites.map((i: { id: string }) => i.id)).not.toContain(
      inviteId,
    );
    const [disabled] = (await auditOf("staff.disable")).filter((entry) => entry.target === inviterId);
    expect(disabled?.details).toEqual({ email: "r-disabled@mga.test", withdrawn_invites: [inviteId] });
    // Enabling R again does not bring the invitation back.
    ok(await mutate(admin, "staff.members.setStatus", { id: inviterId, status: "active" }));
    expect(outcome(await accept(token, "s password is long 1"))).toEqual(withdrawn);
  });

  it("demoting the inviter to viewer withdraws them too", async () => {
    const { token, inviteId, inviterId } = await invitedByR("r-demoted@mga.test", "s-demoted@mga.test");
    ok(await mutate(admin, "staff.members.setRole", { id: inviterId, role: "viewer" }));
    expect(outcome(await accept(token, "s password is long 2"))).toEqual(withdrawn);
    const [demoted] = (await auditOf("staff.role")).filter((entry) => entry.target === inviterId);
    expect(demoted?.details).toEqual({
      email: "r-demoted@mga.test",
      from: "admin",
      to: "viewer",
      withdrawn_invites: [inviteId],
    });
  });

  it("acceptance checks the inviter is still an active admin, even for an invitation nobody withdrew", async () => {
    // As when the invitation was committed just after the inviter's disabling had withdrawn theirs.
    const { token, inviterId } = await invitedByR("r-raced@mga.test", "s-raced@mga.test");
    await app.t.db.sql.query("UPDATE staff_accounts SET disabled_at = now() WHERE id = $1", [inviterId]);
    expect(outcome(await describeInvite(token))).toEqual(withdrawn);
    expect(outcome(await accept(token, "s password is long 3"))).toEqual(withdrawn);
    expect(await rows("SELECT id FROM staff_accounts WHERE email = 's-raced@mga.test'")).toEqual([]);
  });
});

describe("managing colleagues", () => {
  const colleague = async (email: string, role: "admin" | "viewer") => {
    const account = await createStaff(app.t.db, { email, password: "colleague password 1", role, actor: "test" });
    return { id: account.id, session: await signIn(email, "colleague password 1") };
  };

  it("a role change applies to the colleague's next request, in the session they already have", async () => {
    const cora = await colleague("cora@mga.test", "viewer");
    expect((await mutate(cora.session, "staff.organizations.create", { name: "Cora's org" })).status).toBe(403);
    expect(ok(await mutate(admin, "staff.members.setRole", { id: cora.id, role: "admin" }))).toMatchObject({
      id: cora.id,
      role: "admin",
    });
    expect((await mutate(cora.session, "staff.organizations.create", { name: "Cora's org" })).status).toBe(200);
    expect(ok(await mutate(admin, "staff.members.setRole", { id: cora.id, role: "viewer" }))).toMatchObject({
      role: "viewer",
    });
    expect((await mutate(cora.session, "staff.organizations.create", { name: "Cora's second org" })).status).toBe(403);
    expect(
      (await auditOf("staff.role")).filter((entry) => entry.target === cora.id).map((entry) => entry.details),
    ).toEqual([
      { email: "cora@mga.test", from: "viewer", to: "admin" },
      { email: "cora@mga.test", from: "admin", to: "viewer" },
    ]);
  });

  it("disabling ends the colleague's sessions at once and refuses their sign-in; enabling lets them sign in again", async () => {
    const dan = await colleague("dan@mga.test", "admin");
    const second = await signIn("dan@mga.test", "colleague password 1");
    expect(ok(await mutate(admin, "staff.members.setStatus", { id: dan.id, status: "disabled" }))).toMatchObject({
      status: "disabled",
    });
    for (const session of [dan.session, second]) expect((await query(session, "staff.me")).status).toBe(401);
    const refused = await trpc("staff.signIn", {
      mutation: true,
      input: { email: "dan@mga.test", password: "colleague password 1" },
    });
    expect({ status: refused.status, message: refused.error?.message, cookie: refused.setCookie }).toEqual({
      status: 403,
      message: "this staff account is disabled; ask an admin",
      cookie: null,
    });
    // Without the password nobody learns that the account exists or is disabled.
    expect(
      (await trpc("staff.signIn", { mutation: true, input: { email: "dan@mga.test", password: "wrong" } })).status,
    ).toBe(401);

    expect(ok(await mutate(admin, "staff.members.setStatus", { id: dan.id, status: "active" }))).toMatchObject({
      status: "active",
    });
    expect(ok(await query(await signIn("dan@mga.test", "colleague password 1"), "staff.me")).email).toBe(
      "dan@mga.test",
    );
    expect((await query(dan.session, "staff.me")).status).toBe(401);
    expect((await auditOf("staff.disable")).map((entry) => entry.target)).toContain(dan.id);
    expect((await auditOf("staff.enable")).map((entry) => entry.target)).toContain(dan.id);
  });

  it("nobody changes their own role or status, and two admins demoting each other at once leave one admin", async () => {
    const adminId = (await rows("SELECT id FROM staff_accounts WHERE email = $1", [ADMIN.email]))[0].id as string;
    const self = await mutate(admin, "staff.members.setRole", { id: adminId, role: "viewer" });
    expect({ status: self.status, message: self.error?.message }).toEqual({
      status: 400,
      message: "you cannot change your own role; ask another admin",
    });
    expect((await mutate(admin, "staff.members.setStatus", { id: adminId, status: "disabled" })).error?.message).toBe(
      "you cannot disable your own account; ask another admin",
    );
    expect((await mutate(admin, "staff.members.setRole", { id: "stf_missing", role: "viewer" })).status).toBe(404);

    // Both admins were authenticated as admins before either change: the check inside the
    // transaction, not the request's middleware, is what keeps one of them an admin.
    const eve = await colleague("eve@mga.test", "admin");
    const fay = await colleague("fay@mga.test", "admin");
    const asActor = (id: string, email: string): StaffMember => ({ id, email, role: "admin", csrfToken: "" });
    const results = await Promise.allSettled([
      setStaffRole(app.t.db, { id: fay.id, role: "viewer", actor: asActor(eve.id, "eve@mga.test") }),
      setStaffRole(app.t.db, { id: eve.id, role: "viewer", actor: asActor(fay.id, "fay@mga.test") }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "forbidden", message: "this action needs the admin role" });
    const roles = await rows("SELECT role FROM staff_accounts WHERE id = ANY($1) ORDER BY role", [[eve.id, fay.id]]);
    expect(roles.map((row) => row.role)).toEqual(["admin", "viewer"]);
  });
});
