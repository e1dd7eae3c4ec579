import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { LocalChatIdentities, LocalSiteAccounts } from "@mga/core/local-site";
import type { SiteAccount } from "@mga/core/partners/ports";

import { newPartner } from "../support/partners";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * The interleavings the account locks exist for, forced rather than hoped for: the built-in
 * site-account system with gates that pause one partner's action at its most dangerous point
 * while the other partner acts. Without the locks each test ends in the state it checks against.
 */
class GatedSiteAccounts extends LocalSiteAccounts {
  /** Runs inside deleteAccount / lock, before the change, once; may wait. */
  beforeDelete: (() => Promise<void>) | undefined;
  beforeLock: (() => Promise<void>) | undefined;
  /** Told of every account found by email. */
  onFound: ((email: string, account: SiteAccount | null) => void) | undefined;
  failUnlocks = 0;

  override async deleteAccount(accountId: string): Promise<void> {
    const gate = this.beforeDelete;
    this.beforeDelete = undefined;
    await gate?.();
    return super.deleteAccount(accountId);
  }

  override async lock(accountId: string): Promise<void> {
    const gate = this.beforeLock;
    this.beforeLock = undefined;
    await gate?.();
    return super.lock(accountId);
  }

  override async unlock(accountId: string): Promise<void> {
    if (this.failUnlocks > 0) {
      this.failUnlocks -= 1;
      throw new Error("site unavailable");
    }
    return super.unlock(accountId);
  }

  override async findByEmail(email: string): Promise<SiteAccount | null> {
    const found = await super.findByEmail(email);
    this.onFound?.(email, found);
    return found;
  }
}

let app: TestApp;
let site: GatedSiteAccounts;
beforeAll(async () => {
  app = await startTestApp({
    directory: (db) => {
      site = new GatedSiteAccounts(db);
      return { siteAccounts: site, chatIdentities: new LocalChatIdentities(db) };
    },
  });
});
afterAll(() => app.close());

function signal() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
const within = (promise: Promise<void>, ms: number) =>
  Promise.race([promise, new Promise<void>((resolve) => setTimeout(resolve, ms))]);
const accountOf = async (externalUserId: string, email: string) =>
  (
    await app.t.db.sql.query(
      "SELECT a.locked, a.deleted_at FROM partner_users u JOIN site_accounts a ON a.id = u.site_account_id WHERE u.external_user_id = $1 AND u.email = $2",
      [externalUserId, email],
    )
  ).rows[0] as { locked: boolean; deleted_at: Date | null } | undefined;

describe("a partner links the person while the creator's partner acts", () => {
  it("deletion decided, account about to go: the link waits, then gets an account of its own", async () => {
    const email = "gate-delete@example.test";
    const b = await newPartner(app, { slug: "bravo-los" });
    const a = await newPartner(app, { slug: "alpha-los" });
    await b.put("/users/b-1", { email });
    const deleting = signal();
    const found = signal();
    // B's deletion has decided the account is its own; it pauses until A has found the account.
    site.beforeDelete = async () => {
      deleting.resolve();
      await within(found.promise, 3_000);
    };
    const deletion = await b.post("/users/b-1/deletions", {}, undefined, { "Idempotency-Key": "gate-del-1" });
    await deleting.promise;
    site.onFound = (seen, account) => {
      if (seen === email && account) found.resolve();
    };
    const put = await a.put("/users/a-1", { email });
    site.onFound = undefined;
    expect([201, 202]).toContain(put.status);
    await expect
      .poll(
        async () => (await b.get(`/user-operations/${deletion.body.operation.operation_id}`)).body.operation.status,
        { timeout: 15_000 },
      )
      .toBe("completed");
    await expect
      .poll(async () => (await a.get("/users/a-1")).body.user.provisioning_status, { timeout: 15_000 })
      .toBe("active");
    expect(await accountOf("a-1", email)).toMatchObject({ locked: false, deleted_at: null });
  });

  it("lock decided, about to be placed: the link waits, then lifts it", async () => {
    const email = "gate-lock@example.test";
    const b = await newPartner(app, { slug: "bravo-los" });
    const a = await newPartner(app, { slug: "alpha-los" });
    await b.put("/users/b-1", { email });
    const locking = signal();
    const linked = signal();
    // B's disable has decided to lock (its user is the only one); it pauses until A has linked.
    site.beforeLock = async () => {
      locking.resolve();
      await within(linked.promise, 2_000);
    };
    const disabling = b.patch("/users/b-1", { status: "disabled" });
    await locking.promise;
    const put = await a.put("/users/a-1", { email });
    linked.resolve();
    expect([201, 202]).toContain(put.status);
    await disabling;
    await expect
      .poll(async () => (await a.get("/users/a-1")).body.user.provisioning_status, { timeout: 15_000 })
      .toBe("active");
    expect(await accountOf("a-1", email)).toMatchObject({ locked: false });
  });

  it("an unlock that fails once is retried: the linked user is not left locked out", async () => {
    const email = "gate-unlock@example.test";
    const b = await newPartner(app, { slug: "bravo-los" });
    const a = await newPartner(app, { slug: "alpha-los" });
    await b.put("/users/b-1", { email });
    await b.patch("/users/b-1", { status: "disabled" });
    expect(
      (await app.t.db.sql.query("SELECT locked FROM site_accounts WHERE email = $1", [email])).rows[0].locked,
    ).toBe(true);
    site.failUnlocks = 1;
    const put = await a.put("/users/a-1", { email });
    expect(put.status).toBe(202);
    await expect
      .poll(async () => (await a.get("/users/a-1")).body.user.provisioning_status, { timeout: 15_000 })
      .toBe("active");
    expect(await accountOf("a-1", email)).toMatchObject({ locked: false });
  });
});

describe("one partner's own changes in quick succession", () => {
  it("disable and reactivate at once, ten times: the account's lock always ends as the user's final status says", async () => {
    const b = await newPartner(app, { slug: "bravo-los" });
    for (let round = 0; round < 10; round += 1) {
      const email = `toggle-${round}@example.test`;
      await b.put(`/users/t-${round}`, { email });
      await Promise.all([
        b.patch(`/users/t-${round}`, { status: "disabled" }),
        b.patch(`/users/t-${round}`, { status: "active" }),
      ]);
      await expect
        .poll(async () => (await b.get(`/users/t-${round}`)).body.user.wordpress_sync_status, { timeout: 15_000 })
        .toBe("applied");
      const { status } = (await b.get(`/users/t-${round}`)).body.user;
      const { locked } = (await app.t.db.sql.query("SELECT locked FROM site_accounts WHERE email = $1", [email]))
        .rows[0];
      expect(locked, `round ${round}: ${status}`).toBe(status === "disabled");
    }
  });
});
