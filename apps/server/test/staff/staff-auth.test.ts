import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createStaff, signInStaff } from "@mga/core/staff";

import { staffClient } from "../support/staff-client";
import { startTestApp, type TestApp } from "../support/test-app";

/** The admin console's staff procedures over /trpc: sign-in, cookie session, CSRF, roles, audit, lockout. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await createStaff(app.t.db, { email: "ana@mga.test", password: "admin password 1", role: "admin", actor: "test" });
  await createStaff(app.t.db, { email: "vic@mga.test", password: "viewer password 1", role: "viewer", actor: "test" });
});
afterAll(() => app.close());

const { trpc, signIn } = staffClient(() => app.adminUrl);

describe("staff sign-in and authorization", () => {
  it("signs in with an httpOnly, SameSite=Strict cookie and a CSRF token; signed-out callers get nothing", async () => {
    const { cookie, csrf, setCookie } = await signIn("ana@mga.test", "admin password 1");
    expect(setCookie).toMatch(/^mga_staff=[^;]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/);
    expect((await trpc("staff.me", { cookie })).data).toEqual({
      email: "ana@mga.test",
      role: "admin",
      csrf_token: csrf,
    });
    expect((await trpc("staff.me")).status).toBe(401);
    expect((await trpc("staff.organizations.list")).status).toBe(401);
    expect((await trpc("staff.organizations.create", { mutation: true, input: { name: "X" } })).status).toBe(401);
  });

  it("mutations need the CSRF token; viewers cannot mutate; admins can, and it is audited", async () => {
    const admin = await signIn("ana@mga.test", "admin password 1");
    const viewer = await signIn("vic@mga.test", "viewer password 1");
    expect(
      (await trpc("staff.organizations.create", { mutation: true, input: { name: "No CSRF" }, cookie: admin.cookie }))
        .status,
    ).toBe(403);
    expect(
      (
        await trpc("staff.organizations.create", {
          mutation: true,
          input: { name: "Viewer" },
          cookie: viewer.cookie,
          csrf: viewer.csrf,
        })
      ).status,
    ).toBe(403);
    const created = await trpc("staff.organizations.create", {
      mutation: true,
      input: { name: "Acme via console" },
      cookie: admin.cookie,
      csrf: admin.csrf,
    });
    expect(created.status).toBe(200);
    expect(
      (await trpc("staff.organizations.list", { cookie: viewer.cookie })).data.map((o: { name: string }) => o.name),
    ).toContain("Acme via console");
    const audit = await trpc("staff.audit.list", { cookie: viewer.cookie, input: { limit: 10 } });
    expect(audit.data.entries[0]).toMatchObject({
      actor: "ana@mga.test",
      action: "organization.create",
      target: created.data.id,
    });
  });

  it("errors on /trpc carry the mapped status, tRPC code and message, never a stack trace", async () => {
    const wrong = await trpc("staff.signIn", { mutation: true, input: { email: "vic@mga.test", password: "not it" } });
    expect(wrong.status).toBe(401);
    expect(wrong.error).toMatchObject({
      message: "wrong email or password",
      code: -32001,
      data: { code: "UNAUTHORIZED", httpStatus: 401, path: "staff.signIn" },
    });
    const viewer = await signIn("vic@mga.test", "viewer password 1");
    const refused = await trpc("staff.organizations.create", {
      mutation: true,
      input: { name: "Nope" },
      cookie: viewer.cookie,
      csrf: viewer.csrf,
    });
    expect(refused.error?.data).toMatchObject({ code: "FORBIDDEN", httpStatus: 403 });
    const missing = await trpc("staff.organizations.get", { input: { id: "org_missing" }, cookie: viewer.cookie });
    expect(missing.error?.data).toMatchObject({ code: "NOT_FOUND", httpStatus: 404 });
    for (const error of [wrong.error, refused.error, missing.error])
      expect(JSON.stringify(error)).not.toMatch(/stack|at async|node_modules/);
  });

  it("signing out ends the session", async () => {
    const admin = await signIn("ana@mga.test", "admin password 1");
    const out = await trpc("staff.signOut", { mutation: true, cookie: admin.cookie, csrf: admin.csrf });
    expect(out.status).toBe(200);
    expect(out.setCookie).toContain("Max-Age=0");
    expect((await trpc("staff.me", { cookie: admin.cookie })).status).toBe(401);
  });

  it("locks an account for the rest of its 15-minute window after 5 failed sign-ins", async () => {
    await createStaff(app.t.db, {
      email: "lock@mga.test",
      password: "right password 1",
      role: "viewer",
      actor: "test",
    });
    const attempt = (password: string) =>
      trpc("staff.signIn", { mutation: true, input: { email: "lock@mga.test", password }, address: "198.51.100.7" });
    for (let i = 0; i < 5; i += 1) expect((await attempt("wrong")).status).toBe(401);
    const locked = await attempt("right password 1");
    expect(locked.status).toBe(429);
    expect(locked.error?.message).toMatch(/^too many failed attempts; try again in 1[45] minutes$/);
    // Once the window has passed (its expiry moved into the past here), the right password works.
    await app.t.db.sql.query("UPDATE sign_in_throttle SET expire = 1 WHERE key LIKE 'staff:account:%'");
    await expect(
      signInStaff(app.t.db, { email: "lock@mga.test", password: "right password 1", address: "198.51.100.7" }),
    ).resolves.toMatchObject({ staff: { role: "viewer" } });
  });

  it("stores only password and session hashes", async () => {
    const { cookie } = await signIn("ana@mga.test", "admin password 1");
    const token = decodeURIComponent(cookie.split("=")[1] as string);
    const dump = JSON.stringify((await app.t.db.sql.query("SELECT * FROM staff_accounts, staff_sessions")).rows);
    expect(dump).not.toContain("admin password 1");
    expect(dump).not.toContain(token);
  });

  it("stores no CSRF token a database reader could use, and refuses a wrong one of any length", async () => {
    const { cookie, csrf } = await signIn("ana@mga.test", "admin password 1");
    const dump = JSON.stringify((await app.t.db.sql.query("SELECT * FROM staff_sessions")).rows);
    expect(dump).not.toContain(csrf);
    // The same token for the whole session: staff.me gives back the one the sign-in gave.
    expect((await trpc("staff.me", { cookie })).data.csrf_token).toBe(csrf);
    const create = (token: string) =>
      trpc("staff.organizations.create", { mutation: true, input: { name: "CSRF probe" }, cookie, csrf: token });
    for (const wrong of ["x", `${csrf.slice(0, -1)}${csrf.endsWith("A") ? "B" : "A"}`, `${csrf}${csrf}`]) {
      expect(await create(wrong)).toMatchObject({ status: 403, error: { message: "missing or wrong X-CSRF-Token" } });
    }
    expect((await create(csrf)).status).toBe(200);
  });
});
