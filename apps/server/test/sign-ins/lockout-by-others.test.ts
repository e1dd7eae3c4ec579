import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { hashPassword } from "@mga/core/passwords";
import { createStaff } from "@mga/core/staff";

import { openSignInSession } from "../support/launches";
import { newPartner } from "../support/partners";
import { ok, staffClient } from "../support/staff-client";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * Nobody can aim a throttle at someone else (issue 21, item 1): an attempt that a client's
 * address limit refuses counts nowhere else, and a hosted-chat sign-in session reaches no
 * other person's account. Each attack runs as a real client would: parallel requests from
 * distinct addresses (X-Forwarded-For, believed from a trusted proxy on the public listener and
 * from the console on the admin listener) against a real server and PostgreSQL. Then the victim,
 * from an address of their own, does what they came to do, and it works.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ trustProxy: "127.0.0.1" });
});
afterAll(() => app.close());

const PASSWORD = "the site password of a loan officer";
const { trpc, signIn: staffSignIn, mutate } = staffClient(() => app.adminUrl);

const post = (path: string, fields: Record<string, string>, address: string) =>
  fetch(`${app.baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": address },
    body: new URLSearchParams(fields),
  });
const statuses = (responses: Array<{ status: number }>) => responses.map((response) => response.status).sort();
const times = <T>(n: number, each: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => each(i)));

/** A provisioned loan officer with a site password, and an open sign-in session of a launch for them. */
async function loanOfficer(externalUserId: string) {
  const partner = await newPartner(app);
  const email = `${externalUserId}-${partner.organizationId}@lender.test`.toLowerCase();
  await partner.put(`/users/${externalUserId}`, { email });
  await app.t.db.sql.query("UPDATE site_accounts SET password_hash = $2 WHERE email = $1", [
    email,
    await hashPassword(PASSWORD),
  ]);
  return { email, partner, session: () => openSignInSession(app, partner, externalUserId) };
}

/** The newest link of a kind the local site "mailed" to an address, as its recipient opens it. */
async function mailedToken(email: string, kind: "password_setup" | "email_verification"): Promise<string | undefined> {
  const { rows } = await app.t.db.sql.query(
    "SELECT payload FROM notification_outbox WHERE recipient = $1 AND kind = $2 ORDER BY created_at DESC LIMIT 1",
    [email, kind],
  );
  if (!rows[0]) return undefined;
  const link = app.t.db.secrets.open("notification-link", rows[0].payload.link) as string;
  return new URLSearchParams(link.split("#")[1]).get("token") ?? undefined;
}

describe("an address over its limit adds nothing to the accounts it names", () => {
  it("staff sign-in: 21 unknown emails, then 6 attempts at a colleague, leave the colleague's sign-in untouched", async () => {
    await createStaff(app.t.db, {
      email: "colleague@mga.test",
      password: "the colleague's password",
      role: "viewer",
      actor: "test",
    });
    const attacker = "203.0.113.10";
    const signIn = (email: string, password: string, address: string) =>
      trpc("staff.signIn", { mutation: true, input: { email, password }, address });
    expect(statuses(await times(21, (i) => signIn(`nobody-${i}@mga.test`, "a guess", attacker)))).toEqual([
      ...Array(20).fill(401),
      429,
    ]);
    expect(statuses(await times(6, (i) => signIn("colleague@mga.test", `guess ${i}`, attacker)))).toEqual(
      Array(6).fill(429),
    );
    // The colleague, from their own address, with the right password.
    expect((await signIn("colleague@mga.test", "the colleague's password", "198.51.100.10")).status).toBe(200);
  });

  it("password reset: 3 requests naming the victim from an address past its hourly limit leave the victim's own request working", async () => {
    const victim = await loanOfficer("lo-reset");
    const attacker = "203.0.113.20";
    expect(
      statuses(await times(10, (i) => post("/site/password-reset", { email: `nobody-${i}@lender.test` }, attacker))),
    ).toEqual(Array(10).fill(200));
    expect(statuses(await times(3, () => post("/site/password-reset", { email: victim.email }, attacker)))).toEqual([
      429, 429, 429,
    ]);
    const before = await mailedToken(victim.email, "password_setup");
    expect((await post("/site/password-reset", { email: victim.email }, "198.51.100.20")).status).toBe(200);
    const sent = await mailedToken(victim.email, "password_setup");
    expect(sent).toBeDefined();
    expect(sent).not.toBe(before);
  });

  it("site login: 30 guesses from one address, then guesses at another lender's user, leave that user's sign-in working", async () => {
    const victim = await loanOfficer("lo-victim");
    const attacker = await loanOfficer("lo-attacker");
    const session = await attacker.session();
    const address = "203.0.113.30";
    // 30 guesses spend the address's limit (what each answers depends on the session's own count).
    expect(
      await times(30, (i) =>
        post("/site/login", { session, email: `person-${i}@lender.test`, password: "a guess" }, address),
      ),
    ).toHaveLength(30);
    expect(
      statuses(
        await times(6, (i) => post("/site/login", { session, email: victim.email, password: `guess ${i}` }, address)),
      ),
    ).toEqual(Array(6).fill(429));
    expect(
      (
        await post(
          "/site/login",
          { session: await victim.session(), email: victim.email, password: PASSWORD },
          "198.51.100.30",
        )
      ).status,
    ).toBe(200);
  });
});

describe("a hosted-chat sign-in session reaches no other person's account", () => {
  it("guesses typed in one lender's session, from fresh addresses, never lock out another lender's user", async () => {
    const victim = await loanOfficer("lo-other-victim");
    const attacker = await loanOfficer("lo-other-attacker");
    const session = await attacker.session();
    // Under every address limit: each guess from an address of its own, all at once.
    const guesses = await times(12, (i) =>
      post("/site/login", { session, email: victim.email, password: `guess ${i}` }, `192.0.2.${i + 1}`),
    );
    // They count against the session's own user (5 checked, then refused), never against the victim.
    expect(statuses(guesses)).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    expect(
      (
        await post(
          "/site/login",
          { session: await victim.session(), email: victim.email, password: PASSWORD },
          "198.51.100.31",
        )
      ).status,
    ).toBe(200);
  });

  it("the victim's right password typed in someone else's session fails like any other", async () => {
    const victim = await loanOfficer("lo-right-victim");
    const attacker = await loanOfficer("lo-right-attacker");
    const answer = await post(
      "/site/login",
      { session: await attacker.session(), email: victim.email, password: PASSWORD },
      "198.51.100.32",
    );
    expect(answer.status).toBe(401);
    expect(await answer.text()).toContain("Wrong email or password, or this sign-in has expired");
  });
});

describe("surfaces throttled per address only: an address over its limit leaves another's link working", () => {
  it("password setup", async () => {
    const victim = await loanOfficer("lo-setup");
    const token = (await mailedToken(victim.email, "password_setup")) as string;
    const attacker = "203.0.113.40";
    expect(
      statuses(
        await times(21, (i) =>
          post("/site/password-setup", { token: `made-up-${i}`, password: "a fine new passphrase" }, attacker),
        ),
      ),
    ).toEqual([...Array(20).fill(401), 429]);
    expect(
      (await post("/site/password-setup", { token, password: "a fine new passphrase" }, "198.51.100.40")).status,
    ).toBe(200);
  });

  it("email verification", async () => {
    const p = await newPartner(app);
    await app.t.db.sql.query(
      "INSERT INTO site_accounts (id, email, origin) VALUES ('sa_throttle_mg', 'mg-throttle@lender.test', 'self')",
    );
    await p.put("/users/mg", { email: "mg-throttle@lender.test" });
    const change = await p.post("/users/mg/profile-changes", { email: "mg-throttle.new@lender.test" }, undefined, {
      "Idempotency-Key": "throttle-mg-1",
    });
    expect(change.body.operation.status).toBe("verification_pending");
    await expect.poll(() => mailedToken("mg-throttle.new@lender.test", "email_verification")).toBeDefined();
    const token = (await mailedToken("mg-throttle.new@lender.test", "email_verification")) as string;
    const attacker = "203.0.113.50";
    expect(statuses(await times(21, (i) => post("/site/verify-email", { token: `made-up-${i}` }, attacker)))).toEqual([
      ...Array(20).fill(404),
      429,
    ]);
    const confirmed = await post("/site/verify-email", { token }, "198.51.100.50");
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Email address confirmed");
  });

  it("staff invitation", async () => {
    await createStaff(app.t.db, {
      email: "inviter@mga.test",
      password: "the inviter's password",
      role: "admin",
      actor: "test",
    });
    const admin = await staffSignIn("inviter@mga.test", "the inviter's password");
    const { token } = ok(
      await mutate(admin, "staff.members.invite", { email: "invitee@mga.test", role: "viewer" }),
    ) as { token: string };
    const accept = (input: { token: string; password: string }, address: string) =>
      trpc("staff.invitations.accept", { mutation: true, input, address });
    const attacker = "203.0.113.60";
    expect(
      statuses(
        await times(21, (i) =>
          accept({ token: `a-made-up-invitation-token-${i}`, password: "a fine new passphrase" }, attacker),
        ),
      ),
    ).toEqual([...Array(20).fill(404), 429]);
    expect((await accept({ token, password: "the invitee's password" }, "198.51.100.60")).status).toBe(200);
  });
});
