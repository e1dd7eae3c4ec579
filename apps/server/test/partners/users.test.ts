import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { listUsersOutput, userResponseSchema } from "@mga/api";
import { LocalChatIdentities, LocalSiteAccounts } from "@mga/core/local-site";
import type { SiteAccount } from "@mga/core/partners/ports";

import { anotherKey, newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const db = () => app.t.db;

/** The local site-account system, unreachable until told otherwise. */
class FlakySiteAccounts extends LocalSiteAccounts {
  failing = true;
  override findByEmail(email: string): Promise<SiteAccount | null> {
    return this.failing ? Promise.reject(new Error("site down")) : super.findByEmail(email);
  }
}

describe("partner users: GET, PUT, PATCH /v1/integrations/{integration}/users[/{external_user_id}]", () => {
  describe("happy", () => {
    it("creates a partner account (201), sends the password setup only then, and never returns personal data", async () => {
      const p = await newPartner(app);
      const res = await p.put("/users/emp-001", { email: "New.Person@Acme.test", name: "New Person" });
      expect(res.status).toBe(201);
      userResponseSchema.parse(res.body);
      expect(res.body.user).toMatchObject({
        integration: "acme-los",
        external_user_id: "emp-001",
        team: null,
        identity_origin: "partner_created",
        experience_type: "white_label",
        mapping_status: "mapped",
        status: "active",
        provisioning_status: "active",
        wordpress_linked: true,
        launch_eligibility: { can_launch: true, blocking_reasons: [] },
        assignment_version: 1,
        access_version: 1,
        account_generation: 1,
        lifecycle_operation: null,
      });
      expect(res.text).not.toMatch(/new\.person|New Person|sa_/i);
      const outbox = await db().sql.query("SELECT kind, recipient FROM notification_outbox");
      expect(outbox.rows).toEqual([{ kind: "password_setup", recipient: "new.person@acme.test" }]);
    });

    it("links an existing site account (existing_mg) without a notification", async () => {
      const p = await newPartner(app);
      await db().sql.query(
        "INSERT INTO site_accounts (id, email, origin) VALUES ('sa_existing', 'known@acme.test', 'self')",
      );
      const before = (await db().sql.query("SELECT count(*)::int AS n FROM notification_outbox")).rows[0].n;
      const res = await p.put("/users/emp-002", { email: "known@acme.test" });
      expect(res.status).toBe(201);
      expect(res.body.user).toMatchObject({
        identity_origin: "existing_mg",
        experience_type: "mg",
        wordpress_linked: true,
      });
      expect((await db().sql.query("SELECT count(*)::int AS n FROM notification_outbox")).rows[0].n).toBe(before);
    });

    it("answers 200 for the same user again, applies team changes, keeps what is omitted", async () => {
      const p = await newPartner(app);
      await p.put("/teams/east", { name: "East" });
      await p.put("/teams/west", { name: "West" });
      await p.put("/users/u", { email: "u@acme.test", team_external_id: "east" });
      const same = await p.put("/users/u", { email: "U@acme.test" });
      expect(same.status).toBe(200);
      expect(same.body.user).toMatchObject({
        team: { external_team_id: "east", name: "East", status: "active" },
        assignment_version: 1,
      });
      const moved = await p.put("/users/u", { email: "u@acme.test", team_external_id: "west" });
      expect(moved.body.user).toMatchObject({ team: { external_team_id: "west" }, assignment_version: 2 });
      const cleared = await p.put("/users/u", { email: "u@acme.test", team_external_id: null });
      expect(cleared.body.user).toMatchObject({ team: null, assignment_version: 3 });
    });

    it("stays pending (202, cannot launch) when the site-account system fails, and the next PUT completes it", async () => {
      let siteAccounts!: FlakySiteAccounts;
      const flakyApp = await startTestApp({
        directory: (db) => ({
          siteAccounts: (siteAccounts = new FlakySiteAccounts(db)),
          chatIdentities: new LocalChatIdentities(db),
        }),
      });
      const db = () => flakyApp.t.db;
      try {
        const p = await newPartner(flakyApp, { slug: "flaky-los" });
        const pending = await p.put("/users/p1", { email: "p1@acme.test" });
        expect(pending.status).toBe(202);
        expect(pending.body.user).toMatchObject({
          provisioning_status: "pending",
          launch_eligibility: {
            can_launch: false,
            blocking_reasons: ["provisioning_pending", "wordpress_unlinked", "chat_identity_unlinked"],
          },
        });
        expect(
          (await db().sql.query("SELECT count(*)::int AS n FROM notification_outbox WHERE recipient = 'p1@acme.test'"))
            .rows[0].n,
        ).toBe(0);
        siteAccounts.failing = false;
        const done = await p.put("/users/p1", { email: "p1@acme.test" });
        expect(done.status).toBe(200);
        expect(done.body.user).toMatchObject({
          provisioning_status: "active",
          launch_eligibility: { can_launch: true },
        });
        expect(
          (await db().sql.query("SELECT count(*)::int AS n FROM notification_outbox WHERE recipient = 'p1@acme.test'"))
            .rows[0].n,
        ).toBe(1);
      } finally {
        await flakyApp.close();
      }
    });

    it("a pending user is completed by the queue without another PUT", async () => {
      let siteAccounts!: FlakySiteAccounts;
      // An app of its own: workers of an instance with a healthy site would finish the job.
      const flakyApp = await startTestApp({
        directory: (db) => ({
          siteAccounts: (siteAccounts = new FlakySiteAccounts(db)),
          chatIdentities: new LocalChatIdentities(db),
        }),
      });
      try {
        const p = await newPartner(flakyApp, { slug: "retry-los" });
        expect((await p.put("/users/later", { email: "later@acme.test" })).status).toBe(202);
        siteAccounts.failing = false;
        await expect
          .poll(async () => (await p.get("/users/later")).body.user.provisioning_status, {
            timeout: 10_000,
            interval: 200,
          })
          .toBe("active");
      } finally {
        await flakyApp.close();
      }
    });

    it("marks provisioning failed once the retries are used up; a later PUT tries again", async () => {
      let siteAccounts!: FlakySiteAccounts;
      const flakyApp = await startTestApp({
        directory: (db) => ({
          siteAccounts: (siteAccounts = new FlakySiteAccounts(db)),
          chatIdentities: new LocalChatIdentities(db),
        }),
      });
      try {
        const p = await newPartner(flakyApp, { slug: "fail-los" });
        expect((await p.put("/users/never", { email: "never@acme.test" })).status).toBe(202);
        await expect
          .poll(async () => (await p.get("/users/never")).body.user.provisioning_status, {
            timeout: 20_000,
            interval: 250,
          })
          .toBe("failed");
        const failed = (await p.get("/users/never")).body.user;
        expect(failed.launch_eligibility.blocking_reasons).toContain("provisioning_failed");
        expect((await p.get("/users")).body.counts.failed).toBe(1);
        siteAccounts.failing = false;
        const retried = await p.put("/users/never", { email: "never@acme.test" });
        expect(retried.status).toBe(200);
        expect(retried.body.user.provisioning_status).toBe("active");
      } finally {
        await flakyApp.close();
      }
    });

    it("disabling locks a partner-created account, destroys its sessions and moves access_version; reactivation unlocks without restoring sessions", async () => {
      const p = await newPartner(app);
      await p.put("/users/d1", { email: "d1@acme.test" });
      const account = (await db().sql.query("SELECT id FROM site_accounts WHERE email = 'd1@acme.test'")).rows[0].id;
      await db().sql.query(
        "INSERT INTO site_sessions (id, site_account_id, expires_at) VALUES ('ses_1', $1, now() + interval '1 day')",
        [account],
      );
      const disabled = await p.patch("/users/d1", { status: "disabled" });
      expect(disabled.status).toBe(200);
      expect(disabled.body.user).toMatchObject({
        status: "disabled",
        access_version: 2,
        launch_eligibility: { can_launch: false, blocking_reasons: ["disabled"] },
      });
      expect((await db().sql.query("SELECT locked FROM site_accounts WHERE id = $1", [account])).rows[0].locked).toBe(
        true,
      );
      expect(
        (await db().sql.query("SELECT count(*)::int AS n FROM site_sessions WHERE site_account_id = $1", [account]))
          .rows[0].n,
      ).toBe(0);

      const active = await p.patch("/users/d1", { status: "active" });
      expect(active.body.user).toMatchObject({
        status: "active",
        access_version: 2,
        launch_eligibility: { can_launch: true },
      });
      expect((await db().sql.query("SELECT locked FROM site_accounts WHERE id = $1", [account])).rows[0].locked).toBe(
        false,
      );
      expect(
        (await db().sql.query("SELECT count(*)::int AS n FROM site_sessions WHERE site_account_id = $1", [account]))
          .rows[0].n,
      ).toBe(0);
    });

    it("a pre-existing account keeps its site access when the partner user is disabled", async () => {
      const p = await newPartner(app);
      await db().sql.query(
        "INSERT INTO site_accounts (id, email, origin) VALUES ('sa_keep', 'keep@acme.test', 'self')",
      );
      await db().sql.query(
        "INSERT INTO site_sessions (id, site_account_id, expires_at) VALUES ('ses_keep', 'sa_keep', now() + interval '1 day')",
      );
      await p.put("/users/k1", { email: "keep@acme.test" });
      await p.patch("/users/k1", { status: "disabled" });
      expect((await db().sql.query("SELECT locked FROM site_accounts WHERE id = 'sa_keep'")).rows[0].locked).toBe(
        false,
      );
      expect(
        (await db().sql.query("SELECT count(*)::int AS n FROM site_sessions WHERE site_account_id = 'sa_keep'")).rows[0]
          .n,
      ).toBe(1);
    });

    it("with the site-account system down, disabling still answers 200 (site sync pending) and the queue locks the account later", async () => {
      class DownSiteAccounts extends LocalSiteAccounts {
        down = false;
        override lock(accountId: string): Promise<void> {
          return this.down ? Promise.reject(new Error("site down")) : super.lock(accountId);
        }
      }
      let siteAccounts: DownSiteAccounts | undefined;
      const flakyApp = await startTestApp({
        directory: (database) => {
          siteAccounts = new DownSiteAccounts(database);
          return { siteAccounts, chatIdentities: new LocalChatIdentities(database) };
        },
      });
      try {
        const p = await newPartner(flakyApp);
        await p.put("/users/sd1", { email: "sd1@acme.test" });
        (siteAccounts as DownSiteAccounts).down = true;
        const disabled = await p.patch("/users/sd1", { status: "disabled" });
        expect(disabled.status).toBe(200);
        expect(disabled.body.user).toMatchObject({ status: "disabled", wordpress_sync_status: "pending" });
        expect(disabled.body.user.launch_eligibility.blocking_reasons).toEqual(["disabled", "wordpress_sync_pending"]);
        const locked = () => flakyApp.t.db.sql.query("SELECT locked FROM site_accounts WHERE email = 'sd1@acme.test'");
        expect((await locked()).rows[0].locked).toBe(false);
        (siteAccounts as DownSiteAccounts).down = false;
        await expect
          .poll(async () => (await p.get("/users/sd1")).body.user.wordpress_sync_status, { timeout: 15_000 })
          .toBe("applied");
        expect((await locked()).rows[0].locked).toBe(true);
      } finally {
        await flakyApp.close();
      }
    });

    it("filters, combines, pages and counts over the whole integration", async () => {
      const p = await newPartner(app);
      await p.put("/teams/east", { name: "East" });
      for (let i = 1; i <= 6; i += 1)
        await p.put(`/users/emp-${i}`, { email: `emp${i}@acme.test`, ...(i <= 3 ? { team_external_id: "east" } : {}) });
      await p.put("/users/other-7", { email: "o7@acme.test" });
      await p.patch("/users/emp-5", { status: "disabled" });
      await db().sql.query("UPDATE partner_users SET status = 'deleted' WHERE external_user_id = 'emp-6'");

      const ids = (res: { body: { users: Array<{ external_user_id: string }> } }) =>
        res.body.users.map((u) => u.external_user_id);
      const all = await p.get("/users");
      listUsersOutput.parse(all.body);
      expect(ids(all)).toEqual(["emp-1", "emp-2", "emp-3", "emp-4", "emp-5", "other-7"]);
      expect(all.body.counts).toEqual({ total: 6, active: 5, disabled: 1, deleted: 1, pending: 0, failed: 0 });
      expect(ids(await p.get("/users?status=deleted"))).toEqual(["emp-6"]);
      expect(ids(await p.get("/users?status=disabled"))).toEqual(["emp-5"]);
      expect(ids(await p.get("/users?team_external_id=east"))).toEqual(["emp-1", "emp-2", "emp-3"]);
      expect(ids(await p.get("/users?unassigned=true"))).toEqual(["emp-4", "emp-5", "other-7"]);
      expect(ids(await p.get("/users?unassigned=false"))).toEqual(["emp-1", "emp-2", "emp-3"]);
      expect(ids(await p.get("/users?q=EMP-"))).toEqual(["emp-1", "emp-2", "emp-3", "emp-4", "emp-5"]);
      expect(ids(await p.get("/users?external_user_id=emp-2"))).toEqual(["emp-2"]);
      expect(ids(await p.get("/users?team_external_id=east&external_user_id=emp-2"))).toEqual(["emp-2"]);
      expect(ids(await p.get("/users?team_external_id=east&external_user_id=emp-4"))).toEqual([]);
      expect(ids(await p.get("/users?team_external_id=east&external_user_id=nobody"))).toEqual([]);
      expect(ids(await p.get("/users?team_external_id=east&external_user_id=emp-2&status=disabled"))).toEqual([]);
      expect(ids(await p.get("/users?team_external_id=ghost"))).toEqual([]);
      expect((await p.get("/users?team_external_id=ghost")).body.counts.total).toBe(6);

      expectEnvelope(await p.get("/users?q=emp&external_user_id=emp-1"), 400, "invalid_request");
      expectEnvelope(await p.get("/users?unassigned=true&team_external_id=east"), 400, "invalid_request");
      expectEnvelope(await p.get("/users?q=emp1@acme.test"), 400, "invalid_request");
      expectEnvelope(await p.get("/users?unassigned=maybe"), 400, "invalid_request");
      expectEnvelope(await p.get("/users?limit=101"), 400, "invalid_request");
      expectEnvelope(await p.get("/users?email=emp1@acme.test"), 400, "invalid_request");

      const page1 = await p.get("/users?limit=4");
      expect(ids(page1)).toEqual(["emp-1", "emp-2", "emp-3", "emp-4"]);
      await p.put("/users/late-8", { email: "late8@acme.test" });
      const page2 = await p.get(`/users?limit=4&cursor=${page1.body.next_cursor}`);
      expect(ids(page2)).toEqual(["emp-5", "other-7", "late-8"]);
      expect(page2.body.next_cursor).toBeNull();
    });

    it("pages 25 by default", async () => {
      const p = await newPartner(app);
      await Promise.all(
        Array.from({ length: 27 }, (_, i) =>
          p.put(`/users/bulk-${String(i).padStart(2, "0")}`, { email: `bulk${i}@acme.test` }),
        ),
      );
      const first = await p.get("/users");
      expect(first.body.users).toHaveLength(25);
      const second = await p.get(`/users?cursor=${first.body.next_cursor}`);
      expect(second.body.users).toHaveLength(2);
      expect(
        new Set(
          [...first.body.users, ...second.body.users].map((u: { external_user_id: string }) => u.external_user_id),
        ).size,
      ).toBe(27);
    });
  });

  describe("errors", () => {
    it("409 identity_conflict for a different email; team_not_found and team_archived for unusable teams", async () => {
      const p = await newPartner(app);
      await p.put("/users/u", { email: "u@acme.test" });
      expectEnvelope(await p.put("/users/u", { email: "other@acme.test" }), 409, "identity_conflict");
      expectEnvelope(
        await p.put("/users/v", { email: "v@acme.test", team_external_id: "ghost" }),
        404,
        "team_not_found",
      );
      await p.put("/teams/old", { name: "Old" });
      await p.patch("/teams/old", { status: "archived" });
      expectEnvelope(await p.put("/users/v", { email: "v@acme.test", team_external_id: "old" }), 409, "team_archived");
      expectEnvelope(await p.get("/users/v"), 404, "not_found");
    });

    it("rejects bad bodies and ids: 400 naming the field, nothing created", async () => {
      const p = await newPartner(app);
      const cases: Array<[string, unknown, string]> = [
        ["/users/u", {}, "email"],
        ["/users/u", { email: "not-an-email" }, "email"],
        ["/users/u", { email: `${"a".repeat(250)}@x.io` }, "email"],
        ["/users/u", { email: "u@acme.test", name: "" }, "name"],
        ["/users/u", { email: "u@acme.test", password: "hunter2" }, "password"],
        ["/users/u", { email: "u@acme.test", team_external_id: "bad id" }, "team_external_id"],
        ["/users/bad%20id", { email: "u@acme.test" }, "external_user_id"],
        [`/users/${"x".repeat(129)}`, { email: "u@acme.test" }, "external_user_id"],
      ];
      for (const [path, body, field] of cases) {
        expect(expectEnvelope(await p.put(path, body), 400, "invalid_request").message).toContain(field);
      }
      expectEnvelope(await p.get("/users/u"), 404, "not_found");
    });

    it("a deleted user stays deleted (PATCH and PUT are 409)", async () => {
      const p = await newPartner(app);
      await p.put("/users/gone", { email: "gone@acme.test" });
      await db().sql.query("UPDATE partner_users SET status = 'deleted' WHERE external_user_id = 'gone'");
      expectEnvelope(await p.patch("/users/gone", { status: "active" }), 409, "identity_conflict");
      expectEnvelope(await p.put("/users/gone", { email: "gone@acme.test" }), 409, "identity_conflict");
      expect((await p.get("/users/gone")).body.user.status).toBe("deleted");
    });

    it("validates the body and 404s an unknown user", async () => {
      const p = await newPartner(app);
      expectEnvelope(await p.patch("/users/nobody", { status: "disabled" }), 404, "not_found");
      await p.put("/users/x", { email: "x@acme.test" });
      expectEnvelope(await p.patch("/users/x", { status: "deleted" }), 400, "invalid_request");
      expectEnvelope(await p.patch("/users/x", {}), 400, "invalid_request");
    });
  });

  describe("security", () => {
    it("needs the read scope; the write scope alone cannot read", async () => {
      const p = await newPartner(app);
      const writer = await anotherKey(app, p.organizationId, ["embed:users:write"]);
      const deleter = await anotherKey(app, p.organizationId, ["embed:users:delete"]);
      expect((await p.put("/users/s", { email: "s@acme.test" }, writer.key)).status).toBe(201);
      expectEnvelope(await p.get("/users", writer.key), 403, "forbidden");
      expectEnvelope(await p.get("/users/s", deleter.key), 403, "forbidden");
      expectEnvelope(await p.put("/users/s2", { email: "s2@acme.test" }, deleter.key), 403, "forbidden");
    });
  });
});
