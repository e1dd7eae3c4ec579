import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getOperationOutput, operationAcceptedSchema } from "@mga/api";

import { anotherKey, newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

/** Lifecycle operations: deletion, reprovision, profile changes, polling, idempotency. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const db = () => app.t.db;
type Partner = Awaited<ReturnType<typeof newPartner>>;
const post = (p: Partner, path: string, body: unknown, idempotencyKey?: string, key = p.key) =>
  app.request(`${p.base}${path}`, {
    method: "POST",
    key,
    headers: { "Content-Type": "application/json", ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}) },
    body: JSON.stringify(body),
  });
async function pollUntilDone(p: Partner, operationId: string) {
  let last: { body: { operation: { status: string } } } | undefined;
  await expect
    .poll(
      async () => {
        last = await p.get(`/user-operations/${operationId}`);
        return last.body.operation.status;
      },
      { timeout: 15_000, interval: 200 },
    )
    .toMatch(/^(completed|failed|expired|cancelled)$/);
  return last?.body as { operation: { status: string; error_code: string | null } };
}

describe("partner user operations: deletions, reprovision, profile-changes, user-operations/{operation_id}", () => {
  describe("happy", () => {
    it("cuts access at once (202), completes asynchronously, deletes a partner-created account, sends nothing", async () => {
      const p = await newPartner(app);
      await p.put("/users/leaver", { email: "leaver@acme.test", name: "Leaver" });
      const account = (await db().sql.query("SELECT id FROM site_accounts WHERE email = 'leaver@acme.test'")).rows[0]
        .id;
      const outboxBefore = (await db().sql.query("SELECT count(*)::int AS n FROM notification_outbox")).rows[0].n;

      const accepted = await post(
        p,
        "/users/leaver/deletions",
        { note: "left the company (ticket 991)" },
        "delete-leaver-1",
      );
      expect(accepted.status).toBe(202);
      operationAcceptedSchema.parse(accepted.body);
      expect(accepted.body.operation).toMatchObject({ type: "deletion", status: "queued", error_code: null });
      expect(accepted.body.user).toMatchObject({
        status: "disabled",
        access_version: 2,
        launch_eligibility: { can_launch: false },
      });
      expect(accepted.text).not.toContain("ticket 991");

      const done = await pollUntilDone(p, accepted.body.operation.operation_id);
      getOperationOutput.parse(done);
      expect(done.operation).toMatchObject({ status: "completed", error_code: null });
      const user = (await p.get("/users/leaver")).body.user;
      expect(user).toMatchObject({
        status: "deleted",
        wordpress_linked: false,
        mapping_status: "unmapped",
        lifecycle_operation: { type: "deletion", status: "completed" },
      });
      expect(user.launch_eligibility.blocking_reasons).toEqual([
        "deleted",
        "wordpress_unlinked",
        "chat_identity_unlinked",
      ]);
      expect(
        (await db().sql.query("SELECT deleted_at IS NOT NULL AS gone FROM site_accounts WHERE id = $1", [account]))
          .rows[0].gone,
      ).toBe(true);
      expect((await db().sql.query("SELECT count(*)::int AS n FROM notification_outbox")).rows[0].n).toBe(outboxBefore);
      expect(
        (await db().sql.query("SELECT email, name FROM partner_users WHERE external_user_id = 'leaver'")).rows[0],
      ).toEqual({ email: "", name: null });
    });

    it("detaches a pre-existing account instead of deleting it", async () => {
      const p = await newPartner(app);
      await db().sql.query(
        "INSERT INTO site_accounts (id, email, origin) VALUES ('sa_stay', 'stay@acme.test', 'self')",
      );
      await p.put("/users/mg-user", { email: "stay@acme.test" });
      const accepted = await post(p, "/users/mg-user/deletions", {}, "delete-mg-1");
      expect((await pollUntilDone(p, accepted.body.operation.operation_id)).operation.status).toBe("completed");
      expect(
        (await db().sql.query("SELECT deleted_at, locked FROM site_accounts WHERE id = 'sa_stay'")).rows[0],
      ).toEqual({ deleted_at: null, locked: false });
      expect((await p.get("/users/mg-user")).body.user.status).toBe("deleted");
    });

    it("survives a crash between the 202 and completion: another instance finishes it", async () => {
      // A database of its own, with no worker on it until the finishing instance starts: this
      // file's main instance would otherwise take the job before its state is read.
      const keeper = await startTestApp({ workers: false });
      const stopped = await startTestApp({ shareDatabaseWith: keeper, workers: false });
      let stoppedOpen = true;
      try {
        const p = await newPartner(stopped, { slug: "crash-los" });
        await p.put("/users/c", { email: "c@acme.test" });
        const accepted = await p.post("/users/c/deletions", {}, undefined, { "Idempotency-Key": "crash-1" });
        expect(accepted.status).toBe(202);
        // The instance that accepted the request goes away before any worker ran the job.
        await stopped.close();
        stoppedOpen = false;
        const { rows } = await keeper.t.db.sql.query("SELECT status FROM lifecycle_operations WHERE id = $1", [
          accepted.body.operation.operation_id,
        ]);
        expect(rows[0].status).toBe("queued");
        // The job is durable: another instance, workers on, completes it.
        const finisher = await startTestApp({ shareDatabaseWith: keeper });
        try {
          const viaFinisher = { ...p, get: (path: string) => finisher.request(`${p.base}${path}`, { key: p.key }) };
          expect(
            (await pollUntilDone(viaFinisher as Partner, accepted.body.operation.operation_id)).operation.status,
          ).toBe("completed");
        } finally {
          await finisher.close();
        }
      } finally {
        if (stoppedOpen) await stopped.close();
        await keeper.close();
      }
    });

    it("starts a new generation with new identities for a deleted user only", async () => {
      const p = await newPartner(app);
      await p.put("/users/back", { email: "back@acme.test" });
      const first = (await db().sql.query("SELECT chat_identity_id FROM partner_users WHERE external_user_id = 'back'"))
        .rows[0].chat_identity_id;
      expectEnvelope(
        await post(p, "/users/back/reprovision", { email: "back@acme.test" }, "re-0"),
        409,
        "identity_conflict",
      );
      const deletion = await post(p, "/users/back/deletions", {}, "del-back");
      await pollUntilDone(p, deletion.body.operation.operation_id);
      expectEnvelope(await p.put("/users/back", { email: "back@acme.test" }), 409, "identity_conflict");

      const accepted = await post(p, "/users/back/reprovision", { email: "back@acme.test" }, "re-1");
      expect(accepted.status).toBe(202);
      expect(accepted.body.operation).toMatchObject({ type: "reprovision" });
      expect(accepted.body.user).toMatchObject({ account_generation: 2, status: "active" });
      expect((await pollUntilDone(p, accepted.body.operation.operation_id)).operation.status).toBe("completed");
      const user = (await p.get("/users/back")).body.user;
      expect(user).toMatchObject({
        status: "active",
        provisioning_status: "active",
        account_generation: 2,
        identity_origin: "partner_created",
        launch_eligibility: { can_launch: true },
      });
      const identities = await db().sql.query(
        "SELECT generation, blocked, id FROM chat_identities WHERE partner_user_id = (SELECT id FROM partner_users WHERE external_user_id = 'back') ORDER BY generation",
      );
      expect(identities.rows.map((row) => [row.generation, row.blocked])).toEqual([
        [1, true],
        [2, false],
      ]);
      expect(identities.rows[1].id).not.toBe(first);
    });

    it("updates a partner-created identity directly; an email change revokes access (access_version)", async () => {
      const p = await newPartner(app);
      await p.put("/users/pc", { email: "pc@acme.test", name: "Old Name" });
      const renamed = await post(p, "/users/pc/profile-changes", { name: "New Name" }, "pc-1");
      expect(renamed.status).toBe(202);
      expect((await pollUntilDone(p, renamed.body.operation.operation_id)).operation.status).toBe("completed");
      expect((await p.get("/users/pc")).body.user).toMatchObject({
        profile_version: 2,
        access_version: 1,
        profile_sync_status: "applied",
      });

      const moved = await post(p, "/users/pc/profile-changes", { email: "pc.new@acme.test" }, "pc-2");
      expect(moved.text).not.toContain("pc.new@acme.test");
      await pollUntilDone(p, moved.body.operation.operation_id);
      expect((await p.get("/users/pc")).body.user).toMatchObject({ profile_version: 3, access_version: 2 });
      expect(
        (await db().sql.query("SELECT count(*)::int AS n FROM site_accounts WHERE email = 'pc.new@acme.test'")).rows[0]
          .n,
      ).toBe(1);
      // The partner's PUT now matches the new address.
      expect((await p.put("/users/pc", { email: "pc.new@acme.test" })).status).toBe(200);
    });

    it("a pre-existing account: email changes wait for verification and then move the user, name-only changes need a staff override", async () => {
      const p = await newPartner(app);
      await db().sql.query("INSERT INTO site_accounts (id, email, origin) VALUES ('sa_mg', 'mg@acme.test', 'self')");
      await p.put("/users/mg", { email: "mg@acme.test" });
      expectEnvelope(
        await post(p, "/users/mg/profile-changes", { name: "Just A Name" }, "mg-0"),
        409,
        "identity_conflict",
      );

      const pending = await post(p, "/users/mg/profile-changes", { email: "mg.new@acme.test" }, "mg-1");
      expect(pending.body.operation.status).toBe("verification_pending");
      expect(pending.body.user.launch_eligibility.can_launch).toBe(true);
      expect(pending.text).not.toMatch(/token|mg\.new/);
      // The verification link went to the new address (the local site's outbox), sealed: only
      // this server's secret opens it, and its token sits in the fragment.
      let link: string | undefined;
      await expect
        .poll(async () => {
          const { rows } = await db().sql.query(
            "SELECT payload FROM notification_outbox WHERE kind = 'email_verification' AND recipient = 'mg.new@acme.test'",
          );
          link = rows[0] ? db().secrets.open("notification-link", rows[0].payload.link) : undefined;
          return link;
        })
        .toMatch(/^\/site\/verify-email#token=[\w-]{32}$/);
      const token = (link as string).split("#token=")[1] as string;
      // The token is stored nowhere readable: not in the outbox, the operation row or any job's data.
      for (const table of ["notification_outbox", "lifecycle_operations", "pgboss.job"]) {
        expect(
          (await db().sql.query(`SELECT count(*)::int AS n FROM ${table} t WHERE t::text LIKE $1`, [`%${token}%`]))
            .rows[0].n,
        ).toBe(0);
      }
      // Until confirmed, the old profile is in force.
      expect((await db().sql.query("SELECT email FROM site_accounts WHERE id = 'sa_mg'")).rows[0].email).toBe(
        "mg@acme.test",
      );
      const confirm = () =>
        fetch(`${app.baseUrl}/site/verify-email`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token }),
        });
      const confirmed = await confirm();
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toContain("Email address confirmed");
      expect((await pollUntilDone(p, pending.body.operation.operation_id)).operation.status).toBe("completed");
      // A partner never re-emails a person's pre-existing account: the user moves to the new
      // address's account (created for it here, with its own password-setup link).
      expect((await db().sql.query("SELECT email FROM site_accounts WHERE id = 'sa_mg'")).rows[0].email).toBe(
        "mg@acme.test",
      );
      await expect
        .poll(async () => (await p.get("/users/mg")).body.user, { timeout: 10_000 })
        .toMatchObject({
          identity_origin: "partner_created",
          wordpress_linked: true,
          provisioning_status: "active",
          profile_version: 2,
          access_version: 2,
        });
      const moved = await db().sql.query(
        "SELECT a.email FROM partner_users u JOIN site_accounts a ON a.id = u.site_account_id WHERE u.external_user_id = 'mg'",
      );
      expect(moved.rows).toEqual([{ email: "mg.new@acme.test" }]);
      const again = await confirm();
      expect(again.status).toBe(404);
      expect(await again.text()).toContain("Unknown or already used verification link.");
    });

    it("an audited staff override changes a pre-existing account's name; the partner sees no note", async () => {
      const { applyProfileOverride } = await import("@mga/core/partners/operations");
      const { getIntegration } = await import("@mga/core/partners/integrations");
      const { localDirectory } = await import("@mga/core/local-site");
      const p = await newPartner(app);
      await db().sql.query(
        "INSERT INTO site_accounts (id, email, name, origin) VALUES ('sa_ov', 'ov@acme.test', 'Old', 'self')",
      );
      await p.put("/users/ov", { email: "ov@acme.test" });
      const integration = await getIntegration(db(), p.organizationId, p.slug);
      const deps = { db: db(), queue: app.queue, ...localDirectory(db()) };
      await expect(
        applyProfileOverride(deps, integration, "ov", { name: "New", actor: "staff:ana", reason: " " }),
      ).rejects.toMatchObject({ code: "invalid_request" });
      const op = await applyProfileOverride(deps, integration, "ov", {
        name: "New",
        actor: "staff:ana",
        reason: "legal name change, ticket 77",
      });
      expect((await pollUntilDone(p, op.id)).operation.status).toBe("completed");
      expect((await db().sql.query("SELECT name FROM site_accounts WHERE id = 'sa_ov'")).rows[0].name).toBe("New");
      const audit = await db().sql.query(
        "SELECT actor, action, target, details FROM audit_log WHERE details->>'operation_id' = $1",
        [op.id],
      );
      expect(audit.rows[0]).toMatchObject({
        actor: "staff:ana",
        action: "partner_user.profile_override",
        target: `${p.slug}/ov`,
        details: { fields: ["name"] },
      });
      const polled = await p.get(`/user-operations/${op.id}`);
      expect(polled.text).not.toMatch(/ticket 77|staff:ana/);
    });
  });

  describe("errors", () => {
    it("replays the same operation for the same Idempotency-Key, 409 for another body", async () => {
      const p = await newPartner(app, { slug: "idem-los" });
      await p.put("/users/r", { email: "r@acme.test" });
      const first = await post(p, "/users/r/deletions", { note: "a" }, "del-r");
      const again = await post(p, "/users/r/deletions", { note: "a" }, "del-r");
      expect(again.status).toBe(202);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expectEnvelope(await post(p, "/users/r/deletions", { note: "b" }, "del-r"), 409, "idempotency_conflict");
      const ops = await db().sql.query(
        "SELECT count(*)::int AS n FROM lifecycle_operations o JOIN partner_users u ON u.id = o.partner_user_id WHERE u.external_user_id = 'r'",
      );
      expect(ops.rows[0].n).toBe(1);
    });

    it("expires an unconfirmed verification and validates bodies", async () => {
      const p = await newPartner(app);
      await db().sql.query("INSERT INTO site_accounts (id, email, origin) VALUES ('sa_exp', 'exp@acme.test', 'self')");
      await p.put("/users/exp", { email: "exp@acme.test" });
      const pending = await post(p, "/users/exp/profile-changes", { email: "exp.new@acme.test" }, "exp-1");
      await db().sql.query(
        "UPDATE lifecycle_operations SET verification_expires_at = now() - interval '1 second' WHERE id = $1",
        [pending.body.operation.operation_id],
      );
      expect((await p.get(`/user-operations/${pending.body.operation.operation_id}`)).body.operation.status).toBe(
        "expired",
      );
      expectEnvelope(await post(p, "/users/exp/profile-changes", {}, "exp-2"), 400, "invalid_request");
      expectEnvelope(await post(p, "/users/exp/profile-changes", { email: "nope" }, "exp-3"), 400, "invalid_request");
      expectEnvelope(
        await post(p, "/users/exp/profile-changes", { email: "exp@acme.test" }, "exp-4"),
        400,
        "invalid_request",
      );
      expectEnvelope(await p.get("/user-operations/op_unknown"), 404, "not_found");
    });
  });

  describe("security", () => {
    it("needs embed:users:delete and an Idempotency-Key; the deletion scope alone can delete", async () => {
      const p = await newPartner(app);
      await p.put("/users/d", { email: "d@acme.test" });
      const writer = await anotherKey(app, p.organizationId, ["embed:users:read", "embed:users:write"]);
      const deleter = await anotherKey(app, p.organizationId, ["embed:users:delete"]);
      expectEnvelope(await post(p, "/users/d/deletions", {}, "k-1", writer.key), 403, "forbidden");
      expectEnvelope(await post(p, "/users/d/deletions", {}, undefined, deleter.key), 400, "invalid_request");
      expect((await post(p, "/users/d/deletions", {}, "k-2", deleter.key)).status).toBe(202);
      expectEnvelope(await post(p, "/users/nobody/deletions", {}, "k-3", deleter.key), 404, "not_found");
    });
  });
});
