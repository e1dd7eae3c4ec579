import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { withAdvisoryLocks } from "../../../src/db/advisory-locks";
import type { IntegrationRecord } from "../../../src/partners/integrations/integrations";
import type { SiteAccount, SiteAccounts } from "../../../src/partners/ports/site-accounts";
import { linkSiteAccounts } from "../../../src/partners/users/link-site-accounts";
import { emailLockKey, linkSiteAccount } from "../../../src/partners/users/site-account-ownership";
import { openFixtures, type Fixtures } from "../../support/fixtures";

/**
 * Linking a set of users (an import's chunk) ends each user as linking it alone does, and one
 * user's failure, or a lock someone else holds, does not fail the others.
 */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

/** Users stored but not linked (provisioned while the site-account system was down). */
async function unlinked(integration: IntegrationRecord, emails: string[]) {
  const users = [];
  for (const [i, email] of emails.entries())
    users.push(await f.user({ integration, externalUserId: `u-${i}`, email, status: "pending" }));
  return users.map((user) => ({ id: user.id, email: user.email, name: "Loan Officer" }));
}

/** What a user's link left behind, comparable across runs (no ids). */
async function linkState(userId: string) {
  const { rows } = await f.db.sql.query<{
    origin: string | null;
    experience: string;
    mapping: string;
    account_origin: string | null;
    recorded: boolean;
    locked: boolean | null;
  }>(
    `SELECT u.identity_origin AS origin, u.experience_type AS experience, u.mapping_status AS mapping, a.origin AS account_origin,
            p.site_account_id IS NOT NULL AS recorded, a.locked
     FROM partner_users u LEFT JOIN site_accounts a ON a.id = u.site_account_id LEFT JOIN partner_created_site_accounts p ON p.site_account_id = u.site_account_id
     WHERE u.id = $1`,
    [userId],
  );
  return rows[0];
}

/** Every case of a link: a new address, a hosted-product account, an address given twice, a user linked already. */
async function cases(tag: string) {
  const integration = await f.integration();
  const other = await f.integration();
  const self = await f.selfSiteAccount({ email: `self-${tag}@link.test` });
  const shared = `shared-${tag}@link.test`;
  const users = await unlinked(integration, [`new-${tag}@link.test`, self.email, shared, `done-${tag}@link.test`]);
  users.push(...(await unlinked(other, [shared])));
  // The fourth is linked already (an earlier attempt got that far).
  await linkSiteAccount(f.deps, users[3] as (typeof users)[number]);
  return users;
}

describe("linking a set of users", () => {
  it("ends every user as linking each alone does", async () => {
    const together = await cases("together");
    const alone = await cases("alone");
    const results = await linkSiteAccounts(f.deps, together, { concurrency: 2 });
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    const origins = results.map((r) => (r.status === "fulfilled" ? r.value.identityOrigin : null));
    const aloneOrigins = [];
    for (const user of alone) aloneOrigins.push((await linkSiteAccount(f.deps, user)).identityOrigin);
    expect(origins).toEqual(aloneOrigins);
    expect(origins).toEqual(["partner_created", "existing_mg", "partner_created", "partner_created", "existing_mg"]);
    for (const [i, user] of together.entries())
      expect(await linkState(user.id)).toEqual(await linkState((alone[i] as (typeof alone)[number]).id));
    // The address given twice has one account, shared by both users.
    const accounts = results.map((r) => (r.status === "fulfilled" ? r.value.accountId : null));
    expect(accounts[2]).toBe(accounts[4]);
  });

  it("a user whose lookup fails is refused alone; the others are linked", async () => {
    const integration = await f.integration();
    const users = await unlinked(integration, ["a@fail.test", "b@fail.test", "c@fail.test"]);
    const site = f.deps.siteAccounts;
    const failing: SiteAccounts = new Proxy(site, {
      get(target, property, receiver) {
        if (property === "findByEmail")
          return (email: string): Promise<SiteAccount | null> =>
            email === "b@fail.test" ? Promise.reject(new Error("down for b")) : target.findByEmail(email);
        return Reflect.get(target, property, receiver);
      },
    });
    const results = await linkSiteAccounts({ ...f.deps, siteAccounts: failing }, users, { concurrency: 3 });
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain("down for b");
    expect((await linkState(users[1]?.id ?? ""))?.mapping).toBe("pending");
    expect((await linkState(users[0]?.id ?? ""))?.mapping).toBe("mapped");
  });

  it("a user whose email lock someone else holds is linked alone once it is free; the others do not wait", async () => {
    const integration = await f.integration();
    const users = await unlinked(integration, ["x@busy.test", "y@busy.test", "z@busy.test"]);
    let release: () => void = () => {};
    let held: () => void = () => {};
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = withAdvisoryLocks(f.db, [emailLockKey("y@busy.test")], async () => {
      held();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await holding;
    const linking = linkSiteAccounts(f.deps, users);
    // The free users are linked while y's lock is still held.
    for (let tries = 0; (await linkState(users[2]?.id ?? ""))?.mapping !== "mapped" && tries < 200; tries += 1)
      await new Promise((r) => setTimeout(r, 25));
    expect((await linkState(users[0]?.id ?? ""))?.mapping).toBe("mapped");
    expect((await linkState(users[2]?.id ?? ""))?.mapping).toBe("mapped");
    expect((await linkState(users[1]?.id ?? ""))?.mapping).toBe("pending");
    release();
    await holder;
    expect((await linking).map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    expect((await linkState(users[1]?.id ?? ""))?.mapping).toBe("mapped");
  });
});
