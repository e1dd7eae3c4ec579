import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { hashPassword } from "@mga/core/passwords";

import { openSignInSession } from "../support/launches";
import { newPartner } from "../support/partners";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * One person provisioned by two partners in two organizations shares one site account
 * (docs/decisions.md, "Site accounts shared between partners"). Whatever one partner does to
 * its own user, the other partner's user keeps its access, credentials and profile, and its
 * partner's view stays true. Everything goes through the REST API and the site login.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const PASSWORD = "a sturdy passphrase for the site";
type Partner = Awaited<ReturnType<typeof newPartner>>;

/** Org B provisions the person first (its user creates the account), then org A links the same account. */
async function sharedPerson(email: string) {
  const b = await newPartner(app, { slug: "bravo-los" });
  const a = await newPartner(app, { slug: "alpha-los" });
  expect((await b.put("/users/b-1", { email })).body.user.identity_origin).toBe("partner_created");
  const linked = await a.put("/users/a-1", { email });
  expect(linked.status).toBe(201);
  expect(linked.body.user.identity_origin).toBe("existing_mg");
  await app.t.db.sql.query("UPDATE site_accounts SET password_hash = $2 WHERE email = $1", [
    email,
    await hashPassword(PASSWORD),
  ]);
  return { a, b };
}

/** A's loan officer opens the hosted chat and signs in at the site login: the HTTP status of the sign-in. */
async function siteLogin(p: Partner, externalUserId: string, email: string): Promise<number> {
  const session = await openSignInSession(app, p, externalUserId);
  const form = new URLSearchParams({ session, email, password: PASSWORD });
  const login = await fetch(`${app.baseUrl}/site/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
  });
  await login.text();
  return login.status;
}

/** What A's API says of its user: everything that must stay true whatever B does. */
async function expectIntactForA(a: Partner) {
  const { body } = await a.get("/users/a-1");
  expect(body.user).toMatchObject({
    status: "active",
    identity_origin: "existing_mg",
    mapping_status: "mapped",
    wordpress_linked: true,
    profile_sync_status: "applied",
    wordpress_sync_status: "applied",
    launch_eligibility: { can_launch: true, blocking_reasons: [] },
  });
}

async function account(email: string) {
  const { rows } = await app.t.db.sql.query(
    "SELECT id, email, locked, deleted_at FROM site_accounts WHERE id = (SELECT site_account_id FROM partner_users WHERE external_user_id = 'a-1' AND email = $1)",
    [email],
  );
  return rows[0] as { id: string; email: string; locked: boolean; deleted_at: Date | null };
}

const poll = async (p: Partner, operationId: string, status: string) =>
  expect
    .poll(async () => (await p.get(`/user-operations/${operationId}`)).body.operation.status, { timeout: 15_000 })
    .toBe(status);

describe("a site account shared by two organizations' partners", () => {
  it("B disabling its user leaves the account unlocked: A's user still signs in and A's view is unchanged", async () => {
    const email = "shared-disable@example.test";
    const { a, b } = await sharedPerson(email);
    expect((await b.patch("/users/b-1", { status: "disabled" })).body.user.launch_eligibility.can_launch).toBe(false);
    expect((await account(email)).locked).toBe(false);
    expect(await siteLogin(a, "a-1", email)).toBe(200);
    await expectIntactForA(a);
    // B's own user cannot launch: its access is cut on B's side alone.
    expect((await b.get("/users/b-1")).body.user).toMatchObject({ status: "disabled", access_version: 2 });
  });

  it("B changing its user's email never re-emails the shared account: it waits for verification at the new address", async () => {
    const email = "shared-email@example.test";
    const { a, b } = await sharedPerson(email);
    const change = await b.post("/users/b-1/profile-changes", { email: "hijack@example.test" }, undefined, {
      "Idempotency-Key": "pc-shared-1",
    });
    expect(change.status, change.text).toBe(202);
    await poll(b, change.body.operation.operation_id, "verification_pending");
    expect((await account(email)).email).toBe(email);
    expect(await siteLogin(a, "a-1", email)).toBe(200);
    await expectIntactForA(a);
    // The verification link went to the new address, for its owner to confirm.
    const sent = () =>
      app.t.db.sql.query(
        "SELECT recipient FROM notification_outbox WHERE kind = 'email_verification' AND recipient = 'hijack@example.test'",
      );
    await expect.poll(async () => (await sent()).rowCount, { timeout: 10_000 }).toBe(1);
  });

  it("B renaming its user changes B's record only, not the shared account's name", async () => {
    const email = "shared-name@example.test";
    const { a, b } = await sharedPerson(email);
    await app.t.db.sql.query("UPDATE site_accounts SET name = 'Real Name' WHERE email = $1", [email]);
    const change = await b.post("/users/b-1/profile-changes", { name: "Someone Else" }, undefined, {
      "Idempotency-Key": "pc-shared-2",
    });
    expect(change.status, change.text).toBe(202);
    await poll(b, change.body.operation.operation_id, "completed");
    expect((await app.t.db.sql.query("SELECT name FROM site_accounts WHERE email = $1", [email])).rows[0].name).toBe(
      "Real Name",
    );
    await expectIntactForA(a);
  });

  it("B deleting its user detaches it: the account stays, A's user still signs in", async () => {
    const email = "shared-delete@example.test";
    const { a, b } = await sharedPerson(email);
    const deletion = await b.post("/users/b-1/deletions", {}, undefined, { "Idempotency-Key": "del-shared-1" });
    expect(deletion.status, deletion.text).toBe(202);
    await poll(b, deletion.body.operation.operation_id, "completed");
    expect((await b.get("/users/b-1")).body.user).toMatchObject({ status: "deleted", wordpress_linked: false });
    const left = await account(email);
    expect(left).toMatchObject({ email, locked: false, deleted_at: null });
    expect(await siteLogin(a, "a-1", email)).toBe(200);
    await expectIntactForA(a);
  });

  it("A linking an account that B's disabled user had locked unlocks it; B alone again locks it", async () => {
    const email = "shared-relock@example.test";
    const b = await newPartner(app, { slug: "bravo-los" });
    const a = await newPartner(app, { slug: "alpha-los" });
    await b.put("/users/b-1", { email });
    await b.patch("/users/b-1", { status: "disabled" });
    const id = (await app.t.db.sql.query("SELECT id FROM site_accounts WHERE email = $1", [email])).rows[0].id;
    expect((await app.t.db.sql.query("SELECT locked FROM site_accounts WHERE id = $1", [id])).rows[0].locked).toBe(
      true,
    );
    await a.put("/users/a-1", { email });
    expect((await app.t.db.sql.query("SELECT locked FROM site_accounts WHERE id = $1", [id])).rows[0].locked).toBe(
      false,
    );
    const deletion = await a.post("/users/a-1/deletions", {}, undefined, { "Idempotency-Key": "del-a-1" });
    await poll(a, deletion.body.operation.operation_id, "completed");
    expect(
      (await app.t.db.sql.query("SELECT locked, deleted_at FROM site_accounts WHERE id = $1", [id])).rows[0],
    ).toMatchObject({ locked: true, deleted_at: null });
  });
});

describe("attacks through a partner's own user", () => {
  it("confirming an email change at an address the partner controls moves only that partner's user: the shared account keeps its email and name", async () => {
    const email = "victim@example.test";
    const { a, b } = await sharedPerson(email);
    await app.t.db.sql.query("UPDATE site_accounts SET name = 'Victim' WHERE email = $1", [email]);
    // A's user is linked (existing_mg) to the account B's user created; A asks to move it to an address A controls.
    const change = await a.post(
      "/users/a-1/profile-changes",
      { email: "attacker@alpha.test", name: "Attacker" },
      undefined,
      { "Idempotency-Key": "hijack-1" },
    );
    expect(change.status, change.text).toBe(202);
    expect(change.body.operation.status).toBe("verification_pending");
    const sent = () =>
      app.t.db.sql.query(
        "SELECT payload FROM notification_outbox WHERE kind = 'email_verification' AND recipient = 'attacker@alpha.test'",
      );
    await expect.poll(async () => (await sent()).rowCount, { timeout: 10_000 }).toBe(1);
    const token = (app.t.db.secrets.open("notification-link", (await sent()).rows[0].payload.link) as string).split(
      "#token=",
    )[1] as string;
    const confirmed = await fetch(`${app.baseUrl}/site/verify-email`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
    expect(confirmed.status).toBe(200);
    await poll(a, change.body.operation.operation_id, "completed");
    // The shared account is untouched; B's user still signs in with it and B's view is unchanged.
    expect((await app.t.db.sql.query("SELECT email, name FROM site_accounts WHERE email = $1", [email])).rows).toEqual([
      { email, name: "Victim" },
    ]);
    expect(await siteLogin(b, "b-1", email)).toBe(200);
    expect((await b.get("/users/b-1")).body.user).toMatchObject({
      status: "active",
      wordpress_linked: true,
      wordpress_sync_status: "applied",
      launch_eligibility: { can_launch: true },
    });
    // A's user now belongs to the account of the address A confirmed.
    await expect
      .poll(
        async () =>
          (
            await app.t.db.sql.query(
              "SELECT a.email FROM partner_users u JOIN site_accounts a ON a.id = u.site_account_id WHERE u.external_user_id = 'a-1' AND u.email = 'attacker@alpha.test'",
            )
          ).rows,
      )
      .toEqual([{ email: "attacker@alpha.test" }]);
  });

  it("a password chosen at one address does not follow the account to another: a re-emailed account must set a new password", async () => {
    const b = await newPartner(app, { slug: "bravo-los" });
    const a = await newPartner(app, { slug: "alpha-los" });
    await b.put("/users/b-1", { email: "squatter@bravo.test" });
    await app.t.db.sql.query("UPDATE site_accounts SET password_hash = $2 WHERE email = $1", [
      "squatter@bravo.test",
      await hashPassword(PASSWORD),
    ]);
    // B owns the account, so the change is applied directly…
    const change = await b.post("/users/b-1/profile-changes", { email: "ceo@alpha-lender.test" }, undefined, {
      "Idempotency-Key": "squat-1",
    });
    await poll(b, change.body.operation.operation_id, "completed");
    // …but the password B chose is gone, and the setup link went to the new address.
    expect(
      (await app.t.db.sql.query("SELECT password_hash FROM site_accounts WHERE email = 'ceo@alpha-lender.test'")).rows,
    ).toEqual([{ password_hash: null }]);
    expect(
      (
        await app.t.db.sql.query(
          "SELECT count(*)::int AS n FROM notification_outbox WHERE kind = 'password_setup' AND recipient = 'ceo@alpha-lender.test'",
        )
      ).rows[0].n,
    ).toBe(1);
    // A provisions the real CEO and links that account: B's password does not open it.
    expect((await a.put("/users/a-1", { email: "ceo@alpha-lender.test" })).body.user.identity_origin).toBe(
      "existing_mg",
    );
    expect(await siteLogin(a, "a-1", "ceo@alpha-lender.test")).toBe(401);
  });
});

describe("races between partners, with real concurrency", () => {
  it("20 organizations link the person while B deletes its user: nobody is left linked to a deleted or locked account", async () => {
    const email = "race-delete@example.test";
    const b = await newPartner(app, { slug: "bravo-los" });
    await b.put("/users/b-1", { email });
    const others = await Promise.all(Array.from({ length: 20 }, () => newPartner(app, { slug: "alpha-los" })));
    const [deletion, ...puts] = await Promise.all([
      b.post("/users/b-1/deletions", {}, undefined, { "Idempotency-Key": "race-del-1" }),
      ...others.map((p) => p.put("/users/a-1", { email })),
    ]);
    expect(deletion?.status).toBe(202);
    for (const put of puts) expect([201, 202]).toContain(put.status);
    await poll(b, deletion?.body.operation.operation_id, "completed");
    const linked = await app.t.db.sql.query(
      `SELECT u.provisioning_status, a.locked, a.deleted_at FROM partner_users u JOIN site_accounts a ON a.id = u.site_account_id
       WHERE u.external_user_id = 'a-1' AND u.email = $1`,
      [email],
    );
    expect(linked.rowCount).toBe(20);
    for (const row of linked.rows) expect(row).toMatchObject({ locked: false, deleted_at: null });
  });

  it("20 organizations link the person while B disables and reactivates its user: the account ends unlocked", async () => {
    const email = "race-disable@example.test";
    const b = await newPartner(app, { slug: "bravo-los" });
    await b.put("/users/b-1", { email });
    const others = await Promise.all(Array.from({ length: 20 }, () => newPartner(app, { slug: "alpha-los" })));
    await Promise.all([
      ...others.map((p) => p.put("/users/a-1", { email })),
      ...Array.from({ length: 5 }, (_, i) => b.patch("/users/b-1", { status: i % 2 === 0 ? "disabled" : "active" })),
    ]);
    await b.patch("/users/b-1", { status: "disabled" });
    const { rows } = await app.t.db.sql.query(
      "SELECT DISTINCT a.locked FROM partner_users u JOIN site_accounts a ON a.id = u.site_account_id WHERE u.email = $1",
      [email],
    );
    expect(rows).toEqual([{ locked: false }]);
  });
});
