import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { LocalChatIdentities, LocalSiteAccounts } from "@mga/core/local-site";
import { accountLockKey } from "@mga/core/partners/users";

import { newPartner } from "../support/partners";
import { startTestApp, type TestApp } from "../support/test-app";

/** The durable queue with two server instances on one database: each job runs once, and survives a crash. */
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await startTestApp({ jobExpireInSeconds: 3 });
  b = await startTestApp({ shareDatabaseWith: a });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

type Partner = Awaited<ReturnType<typeof newPartner>>;
const post = (app: TestApp, p: Partner, path: string, body: unknown, idempotencyKey: string) =>
  app.request(`${p.base}${path}`, {
    method: "POST",
    key: p.key,
    headers: { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
    body: JSON.stringify(body),
  });

describe("durable queue", () => {
  it("runs each job once with two instances working the queue", { timeout: 60_000 }, async () => {
    const p = await newPartner(a, { slug: "twin-los" });
    const ids = Array.from({ length: 12 }, (_, i) => `twin-${i}`);
    for (const id of ids) await p.put(`/users/${id}`, { email: `${id}@acme.test`, name: "Before" });
    const ops = await Promise.all(
      ids.map((id, i) =>
        post(i % 2 ? a : b, p, `/users/${id}/profile-changes`, { name: `After ${id}` }, `rename-${id}`),
      ),
    );
    expect(ops.every((op) => op.status === 202)).toBe(true);
    await expect
      .poll(
        async () =>
          (
            await a.t.db.sql.query(
              "SELECT count(*)::int AS n FROM lifecycle_operations WHERE status = 'completed' AND type = 'profile_change'",
            )
          ).rows[0].n,
        {
          timeout: 30_000,
          interval: 250,
        },
      )
      .toBe(ids.length);
    // Applied exactly once each: profile_version moved by one, not two.
    const versions = await a.t.db.sql.query(
      "SELECT DISTINCT profile_version FROM partner_users WHERE external_user_id LIKE 'twin-%'",
    );
    expect(versions.rows).toEqual([{ profile_version: 2 }]);
  });

  it(
    "a job whose instance died mid-way is taken up by the other instance and finished once",
    { timeout: 60_000 },
    async () => {
      // Instance C runs the workers but hangs forever inside the deletion, then dies.
      const started: string[] = [];
      class HangingSiteAccounts extends LocalSiteAccounts {
        override deleteAccount(accountId: string): Promise<void> {
          started.push(accountId);
          return new Promise(() => {});
        }
      }
      await b.queue.boss.offWork("partner-user-lifecycle");
      await a.queue.boss.offWork("partner-user-lifecycle");
      const c = await startTestApp({
        shareDatabaseWith: a,
        directory: (db) => ({ siteAccounts: new HangingSiteAccounts(db), chatIdentities: new LocalChatIdentities(db) }),
      });
      const p = await newPartner(c, { slug: "crash2-los" });
      await p.put("/users/victim", { email: "victim@acme.test" });
      const accepted = await post(c, p, "/users/victim/deletions", {}, "del-victim");
      await expect.poll(() => started.length, { timeout: 10_000 }).toBe(1);
      expect(
        (
          await a.t.db.sql.query("SELECT status FROM lifecycle_operations WHERE id = $1", [
            accepted.body.operation.operation_id,
          ])
        ).rows[0].status,
      ).toBe("processing");
      await c.queue.boss.offWork("partner-user-lifecycle", { wait: false });
      // C dies: its connections drop, and PostgreSQL releases what they held (the lock on the
      // site account it was deleting).
      const killed = await a.t.db.sql.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
        [accountLockKey(started[0] as string)],
      );
      expect(killed.rowCount).toBe(1);

      // Instance B works the queue again; once the job's expiry (3 s) passes it is retried there.
      const { startWorkers } = await import("@mga/core/jobs");
      const { localDirectory } = await import("@mga/core/local-site");
      await startWorkers(b.queue, { db: b.t.db, ...localDirectory(b.t.db) });
      await expect
        .poll(
          async () =>
            (
              await a.t.db.sql.query("SELECT status FROM lifecycle_operations WHERE id = $1", [
                accepted.body.operation.operation_id,
              ])
            ).rows[0].status,
          {
            timeout: 40_000,
            interval: 500,
          },
        )
        .toBe("completed");
      const user = await a.t.db.sql.query(
        "SELECT status, access_version FROM partner_users WHERE external_user_id = 'victim'",
      );
      expect(user.rows[0]).toEqual({ status: "deleted", access_version: 2 });
      expect(
        (await a.t.db.sql.query("SELECT deleted_at IS NOT NULL AS gone FROM site_accounts WHERE id = $1", [started[0]]))
          .rows[0].gone,
      ).toBe(true);
      await c.close();
    },
  );
});
