import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { LocalSiteAccounts } from "@mga/core/local-site";
import { hashPassword } from "@mga/core/passwords";

import { openSignInSession } from "../support/launches";
import { newPartner } from "../support/partners";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * The built-in site pages against an attacker: the site login, the password-setup link and
 * the email-verification link. The API trusts X-Forwarded-For here (as behind a proxy with
 * TRUST_PROXY=true), so a test can speak from many client addresses.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ trustProxy: "127.0.0.1" });
});
afterAll(() => app.close());

const PASSWORD = "the site password of a loan officer";
type Partner = Awaited<ReturnType<typeof newPartner>>;

const post = (path: string, fields: Record<string, string>, address: string) =>
  fetch(`${app.baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": address },
    body: new URLSearchParams(fields),
  });

/** The message a refused page shows. */
const alertOf = async (res: Response) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(await res.text())?.[1];

/** A provisioned user with a password, and an open sign-in session of a launch for them. */
async function signInSession(p?: Partner, externalUserId = "lo-1") {
  const partner = p ?? (await newPartner(app));
  const email = `${externalUserId}-${partner.organizationId}@acme.test`.toLowerCase();
  await partner.put(`/users/${externalUserId}`, { email });
  await app.t.db.sql.query("UPDATE site_accounts SET password_hash = $2 WHERE email = $1", [
    email,
    await hashPassword(PASSWORD),
  ]);
  const session = await openSignInSession(app, partner, externalUserId);
  return { email, session, partner };
}

describe("the site login", () => {
  it("checks the sign-in session first: with an expired session a right password is answered exactly like a wrong one", async () => {
    const { email, session } = await signInSession();
    await app.t.db.sql.query("UPDATE embed_sessions SET expires_at = now() - interval '1 second'");
    const right = await post("/site/login", { session, email, password: PASSWORD }, "192.0.2.1");
    const wrong = await post("/site/login", { session, email, password: "not the password at all" }, "192.0.2.1");
    expect(right.status).toBe(401);
    expect(wrong.status).toBe(401);
    const [rightText, wrongText] = [await alertOf(right), await alertOf(wrong)];
    expect(rightText).toBe(wrongText);
    expect(rightText).toMatch(/^Wrong email or password, or this sign-in has expired/);
  });

  it("50 parallel guesses: 5 are checked, the rest refused, and then even the right password waits", async () => {
    const { email, session } = await signInSession();
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post("/site/login", { session, email, password: `guess number ${i}` }, `198.51.100.${i + 1}`),
      ),
    );
    expect(guesses.filter((res) => res.status === 401)).toHaveLength(5);
    const refused = guesses.filter((res) => res.status === 429);
    expect(refused).toHaveLength(45);
    expect(Number(refused[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    const right = await post("/site/login", { session, email, password: PASSWORD }, "198.51.100.99");
    expect(right.status).toBe(429);
    expect(await alertOf(right)).toMatch(/^Too many failed attempts; try again in \d+ minutes\.$/);
  });

  it("a right password for an account that is not the launch's user counts as a failure: the throttle reveals nothing", async () => {
    // The victim: another partner's user with a password; the guesser launches as its own user.
    const victim = await signInSession();
    const { session } = await signInSession();
    const guess = (password: string) =>
      post("/site/login", { session, email: victim.email, password }, "198.51.100.150");
    for (let i = 0; i < 4; i += 1) expect((await guess(`wrong guess ${i}`)).status).toBe(401);
    const right = await guess(PASSWORD);
    expect(right.status).toBe(401);
    expect(await alertOf(right)).toMatch(/^Wrong email or password, or this sign-in has expired/);
    // Had the right password reset the count, this sixth attempt would be checked; it is refused.
    expect((await guess(PASSWORD)).status).toBe(429);
  });

  // Seven users, keys and launches to set up first: more than the default 20 s on a busy machine.
  it(
    "one address cannot spray guesses over every account: after 30 attempts it is refused",
    { timeout: 60_000 },
    async () => {
      // Seven users' sign-ins (a session counts against its own user, 5 each), guessed from one address.
      const partner = await newPartner(app);
      const sessions = await Promise.all(
        Array.from({ length: 7 }, async (_, i) => (await signInSession(partner, `lo-spray-${i}`)).session),
      );
      const results = await Promise.all(
        Array.from({ length: 33 }, (_, i) =>
          post(
            "/site/login",
            { session: sessions[i % 7] as string, email: `person-${i}@acme.test`, password: "a guess" },
            "203.0.113.7",
          ),
        ),
      );
      expect(results.filter((res) => res.status === 401)).toHaveLength(30);
      expect(results.filter((res) => res.status === 429)).toHaveLength(3);
    },
  );
});

/** The password-setup link in the outbox (sealed there), as the person receiving it would open it. */
async function setupLink(email: string): Promise<string> {
  const { rows } = await app.t.db.sql.query(
    "SELECT payload FROM notification_outbox WHERE recipient = $1 AND kind = 'password_setup' ORDER BY created_at DESC LIMIT 1",
    [email],
  );
  return app.t.db.secrets.open("notification-link", rows[0].payload.link) as string;
}
const tokenOf = (link: string) => new URLSearchParams(link.split("#")[1]).get("token") as string;

describe("password-setup and email-verification links", () => {
  it("carry their token in the fragment and are stored only as hashes", async () => {
    const p = await newPartner(app);
    await p.put("/users/lo-9", { email: "lo9@acme.test" });
    const link = await setupLink("lo9@acme.test");
    expect(link).toMatch(/^\/site\/password-setup#token=[\w-]{32}$/);
    const token = tokenOf(link);
    for (const table of ["notification_outbox", "site_password_tokens", "audit_log", "pgboss.job"]) {
      expect(
        (await app.t.db.sql.query(`SELECT count(*)::int AS n FROM ${table} t WHERE t::text LIKE $1`, [`%${token}%`]))
          .rows[0].n,
        table,
      ).toBe(0);
    }
    expect(
      (await post("/site/password-setup", { token, password: "a fine new passphrase" }, "192.0.2.20")).status,
    ).toBe(200);
  });

  it("stop working when the user is disabled, deleted, or sent a newer link", async () => {
    const p = await newPartner(app);
    const attempt = (token: string) =>
      post("/site/password-setup", { token, password: "a fine new passphrase" }, "192.0.2.21");

    await p.put("/users/dis", { email: "dis@acme.test" });
    const disabledLink = await setupLink("dis@acme.test");
    await p.patch("/users/dis", { status: "disabled" });
    expect((await attempt(tokenOf(disabledLink))).status).toBe(401);
    // Reactivated before choosing a password: a new link, since the old one died with the lock.
    await p.patch("/users/dis", { status: "active" });
    const reissued = await setupLink("dis@acme.test");
    expect(reissued).not.toBe(disabledLink);
    expect((await attempt(tokenOf(reissued))).status).toBe(200);

    await p.put("/users/del", { email: "del@acme.test" });
    const deletedLink = await setupLink("del@acme.test");
    const deletion = await p.post("/users/del/deletions", {}, undefined, { "Idempotency-Key": "del-link-1" });
    await expect
      .poll(
        async () => (await p.get(`/user-operations/${deletion.body.operation.operation_id}`)).body.operation.status,
        { timeout: 15_000 },
      )
      .toBe("completed");
    expect((await attempt(tokenOf(deletedLink))).status).toBe(401);

    await p.put("/users/again", { email: "again@acme.test" });
    const older = await setupLink("again@acme.test");
    const account = (await app.t.db.sql.query("SELECT id FROM site_accounts WHERE email = 'again@acme.test'")).rows[0]
      .id;
    await new LocalSiteAccounts(app.t.db).sendPasswordSetup(account);
    const newer = await setupLink("again@acme.test");
    expect(newer).not.toBe(older);
    expect((await attempt(tokenOf(older))).status).toBe(401);
    expect((await attempt(tokenOf(newer))).status).toBe(200);
  });

  it("check the token before anything costly: a made-up token with any password is refused as a bad link", async () => {
    for (const password of ["short", "x".repeat(256), "password1234"]) {
      const res = await post("/site/password-setup", { token: "made-up", password }, "192.0.2.40");
      expect(res.status).toBe(401);
      expect(await alertOf(res)).toMatch(/^This password link is invalid, expired or already used/);
    }
  });

  it("are throttled per client address: 20 attempts, then 429 whatever the token", async () => {
    const results = await Promise.all(
      Array.from({ length: 22 }, (_, i) =>
        post("/site/password-setup", { token: `made-up-${i}`, password: "a fine new passphrase" }, "192.0.2.30"),
      ),
    );
    expect(results.filter((res) => res.status === 401)).toHaveLength(20);
    expect(results.filter((res) => res.status === 429)).toHaveLength(2);
    const verifications = await Promise.all(
      Array.from({ length: 22 }, (_, i) => post("/site/verify-email", { token: `made-up-${i}` }, "192.0.2.31")),
    );
    expect(verifications.filter((res) => res.status === 404)).toHaveLength(20);
    expect(verifications.filter((res) => res.status === 429)).toHaveLength(2);
    // Another address is not affected.
    expect(
      (await post("/site/password-setup", { token: "made-up", password: "a fine new passphrase" }, "192.0.2.32"))
        .status,
    ).toBe(401);
  });
});

describe("set or reset your password", () => {
  it("a request typed by anyone cannot cancel the link the user was sent; the first link used withdraws the other", async () => {
    const partner = await newPartner(app);
    const email = `lo-reset-${partner.organizationId}@acme.test`.toLowerCase();
    await partner.put("/users/lo-reset", { email });
    const sent = tokenOf(await setupLink(email));
    // A stranger who knows the address asks for a link.
    expect((await post("/site/password-reset", { email }, "203.0.113.7")).status).toBe(200);
    const requested = tokenOf(await setupLink(email));
    expect(requested).not.toBe(sent);
    // The link the user was sent still works, and using it withdraws the requested one.
    expect(
      (await post("/site/password-setup", { token: sent, password: "a fine new passphrase" }, "192.0.2.60")).status,
    ).toBe(200);
    expect(
      (await post("/site/password-setup", { token: requested, password: "another fine passphrase" }, "192.0.2.60"))
        .status,
    ).toBe(401);
  });
});
