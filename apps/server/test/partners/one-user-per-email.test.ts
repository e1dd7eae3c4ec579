import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

/**
 * One person is one user per integration (docs/decisions.md, "One user per email in an
 * integration"): PUT, imports, reprovision and profile changes refuse an email another user of
 * the same integration has, with 409 identity_conflict; other partners may share it.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const db = () => app.t.db;
type Partner = Awaited<ReturnType<typeof newPartner>>;
const post = (p: Partner, path: string, body: unknown, idempotencyKey: string) =>
  app.request(`${p.base}${path}`, {
    method: "POST",
    key: p.key,
    headers: { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
    body: JSON.stringify(body),
  });
const usersWith = async (p: Partner, email: string) =>
  (
    await db().sql.query<{ external_user_id: string }>(
      "SELECT u.external_user_id FROM partner_users u JOIN integrations i ON i.id = u.integration_id WHERE i.organization_id = $1 AND u.email = $2 AND u.status <> 'deleted' ORDER BY 1",
      [p.organizationId, email],
    )
  ).rows.map((row) => row.external_user_id);

const profiles = async (p: Partner) =>
  (
    await db().sql.query(
      `SELECT u.external_user_id, u.email, u.site_account_id, u.profile_version, u.access_version FROM partner_users u
       JOIN integrations i ON i.id = u.integration_id WHERE i.organization_id = $1 ORDER BY 1`,
      [p.organizationId],
    )
  ).rows;

async function deleted(p: Partner, externalUserId: string) {
  const accepted = await post(p, `/users/${externalUserId}/deletions`, {}, `delete-${externalUserId}`);
  expect(accepted.status).toBe(202);
  await expect
    .poll(async () => (await p.get(`/users/${externalUserId}`)).body.user.status, { timeout: 15_000, interval: 200 })
    .toBe("deleted");
}

describe("one user per email in an integration", () => {
  it("PUT of a new user with another user's email (any case) is 409 identity_conflict and stores nothing; the same user's PUT still matches", async () => {
    const p = await newPartner(app, { slug: "email-put" });
    expect((await p.put("/users/lo-1", { email: "Pat@Acme.test" })).status).toBe(201);
    const refused = expectEnvelope(await p.put("/users/lo-2", { email: "pat@ACME.test" }), 409, "identity_conflict");
    expect(refused.message).toBe(
      "another user of this integration already has this email. One person is one user per integration: use another address",
    );
    expectEnvelope(await p.get("/users/lo-2"), 404, "not_found");
    expect((await p.put("/users/lo-1", { email: "pat@acme.test" })).status).toBe(200);
    expect(await usersWith(p, "pat@acme.test")).toEqual(["lo-1"]);
  });

  it("another partner's user may have the same email (a shared site account), and a deleted user's email is free again", async () => {
    const p = await newPartner(app, { slug: "email-a" });
    const other = await newPartner(app, { slug: "email-b" });
    expect((await p.put("/users/lo-1", { email: "sam@acme.test" })).status).toBe(201);
    expect((await other.put("/users/lo-9", { email: "sam@acme.test" })).status).toBe(201);
    await deleted(p, "lo-1");
    expect((await p.put("/users/lo-2", { email: "sam@acme.test" })).status).toBe(201);
  });

  it("reprovision with another user's email is 409 and leaves the user deleted; with a free email it proceeds", async () => {
    const p = await newPartner(app, { slug: "email-reprovision" });
    await p.put("/users/lo-1", { email: "kim@acme.test" });
    await p.put("/users/lo-2", { email: "lee@acme.test" });
    await deleted(p, "lo-2");
    expectEnvelope(
      await post(p, "/users/lo-2/reprovision", { email: "KIM@acme.test" }, "re-taken"),
      409,
      "identity_conflict",
    );
    expect((await p.get("/users/lo-2")).body.user).toMatchObject({ status: "deleted", account_generation: 1 });
    expect(await usersWith(p, "kim@acme.test")).toEqual(["lo-1"]);
    expect((await post(p, "/users/lo-2/reprovision", { email: "lee.back@acme.test" }, "re-free")).status).toBe(202);
  });

  it("a profile change to another user's email is 409; an import row with one fails alone with identity_conflict", async () => {
    const p = await newPartner(app, { slug: "email-change" });
    await p.put("/users/lo-1", { email: "ana@acme.test" });
    await p.put("/users/lo-2", { email: "bo@acme.test" });
    expectEnvelope(
      await post(p, "/users/lo-2/profile-changes", { email: "ana@acme.test" }, "pc-taken"),
      409,
      "identity_conflict",
    );
    const started = await post(
      p,
      "/user-imports",
      {
        users: [
          { external_user_id: "lo-3", email: "ana@acme.test" },
          { external_user_id: "lo-4", email: "cy@acme.test" },
        ],
      },
      "import-1",
    );
    expect(started.status).toBe(202);
    const jobId = started.body.import.job_id as string;
    await expect
      .poll(async () => (await p.get(`/user-imports/${jobId}`)).body.import.status, { timeout: 15_000, interval: 200 })
      .toBe("completed");
    const { results } = (await p.get(`/user-imports/${jobId}`)).body.import;
    expect(results[0]).toMatchObject({
      external_user_id: "lo-3",
      outcome: "failed",
      error: { code: "identity_conflict" },
    });
    expect(results[1]).toMatchObject({ external_user_id: "lo-4", error: null });
  });

  it("an email change confirmed after another user of the integration took the address fails with identity_conflict and changes nothing", async () => {
    const p = await newPartner(app, { slug: "email-late" });
    await db().sql.query("INSERT INTO site_accounts (id, email, origin) VALUES ('sa_late', 'late@acme.test', 'self')");
    expect((await p.put("/users/lo-1", { email: "late@acme.test" })).status).toBe(201);
    // A pre-existing account: the change waits for verification; the address is still free.
    const pending = await post(p, "/users/lo-1/profile-changes", { email: "wanted@acme.test" }, "late-1");
    expect(pending.body.operation.status).toBe("verification_pending");
    expect((await p.put("/users/lo-2", { email: "wanted@acme.test" })).status).toBe(201);
    await expect
      .poll(async () => (await p.get("/users/lo-2")).body.user.provisioning_status, { timeout: 15_000, interval: 200 })
      .toBe("active");
    const before = await profiles(p);

    let link: string | undefined;
    await expect
      .poll(async () => {
        const { rows } = await db().sql.query(
          "SELECT payload FROM notification_outbox WHERE kind = 'email_verification' AND recipient = 'wanted@acme.test'",
        );
        link = rows[0] ? db().secrets.open("notification-link", rows[0].payload.link) : undefined;
        return link;
      })
      .toMatch(/#token=/);
    const token = (link as string).split("#token=")[1] as string;
    const confirmed = await fetch(`${app.baseUrl}/site/verify-email`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
    expect(confirmed.status).toBe(200);

    const operationId = pending.body.operation.operation_id as string;
    await expect
      .poll(async () => (await p.get(`/user-operations/${operationId}`)).body.operation.status, {
        timeout: 15_000,
        interval: 200,
      })
      .toBe("failed");
    expect((await p.get(`/user-operations/${operationId}`)).body.operation.error_code).toBe("identity_conflict");
    // Nothing moved: lo-1 keeps its address and account, and no account is linked to two users.
    const after = await profiles(p);
    expect(after).toEqual(before);
    expect(after.find((row) => row.external_user_id === "lo-1")).toMatchObject({
      email: "late@acme.test",
      site_account_id: "sa_late",
    });
    expect((await p.get("/users/lo-1")).body.user.profile_sync_status).toBe("failed");
    expect(await usersWith(p, "wanted@acme.test")).toEqual(["lo-2"]);
  });

  it("two concurrent PUTs of different users with one email: exactly one is created, the other is 409", async () => {
    for (let round = 0; round < 5; round += 1) {
      const p = await newPartner(app, { slug: `email-race-${round}` });
      const answers = await Promise.all([
        p.put("/users/lo-a", { email: "twin@acme.test" }),
        p.put("/users/lo-b", { email: "twin@acme.test" }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body.error.code).toBe("identity_conflict");
      expect(await usersWith(p, "twin@acme.test")).toHaveLength(1);
    }
  });
});
