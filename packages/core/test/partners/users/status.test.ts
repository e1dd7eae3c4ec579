import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getPartnerUser, setPartnerUserStatus } from "../../../src/partners/users/index";
import { launchEligibility } from "../../../src/partners/users/partner-user";
import { runSiteAccountSyncJob } from "../../../src/partners/users/site-account-sync";
import { openFixtures, refusal, type Fixtures } from "../../support/fixtures";

/** PATCH user {status} (spec 3.1): disabling cuts access at once; what happens to the site account depends on who owns it. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

const account = async (id: string | null) =>
  (
    await f.db.sql.query<{ locked: boolean; sessions: number }>(
      "SELECT locked, (SELECT count(*)::int FROM site_sessions WHERE site_account_id = $1) AS sessions FROM site_accounts WHERE id = $1",
      [id],
    )
  ).rows[0];
const openSession = (accountId: string | null) =>
  f.db.sql.query(
    "INSERT INTO site_sessions (id, site_account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')",
    [`ses_${Math.random().toString(36).slice(2)}`, accountId],
  );

describe("disabling and reactivating", () => {
  it("disabling moves access_version, locks the partner-created account and ends its sessions; reactivating unlocks and restores no session", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const accountId = await f.siteAccountOf(integration, user.externalUserId);
    await openSession(accountId);

    const disabled = await setPartnerUserStatus(f.deps, integration, user.externalUserId, "disabled");
    expect(disabled).toMatchObject({
      status: "disabled",
      accessVersion: user.accessVersion + 1,
      wordpressSyncStatus: "applied",
    });
    expect(launchEligibility(disabled).blockingReasons).toEqual(["disabled"]);
    expect(await account(accountId)).toEqual({ locked: true, sessions: 0 });

    const active = await setPartnerUserStatus(f.deps, integration, user.externalUserId, "active");
    expect(active).toMatchObject({ status: "active", accessVersion: user.accessVersion + 1 });
    expect(await account(accountId)).toEqual({ locked: false, sessions: 0 });
  });

  it("asking for the status the user already has changes nothing", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration, status: "disabled" });
    const again = await setPartnerUserStatus(f.deps, integration, user.externalUserId, "disabled");
    expect(again.accessVersion).toBe(user.accessVersion);
    expect(again.updatedAt).toEqual(user.updatedAt);
  });

  it("a pre-existing account keeps its site access (not locked, sessions kept)", async () => {
    const integration = await f.integration();
    const own = await f.selfSiteAccount();
    const user = await f.user({ integration, email: own.email });
    await openSession(own.id);
    await setPartnerUserStatus(f.deps, integration, user.externalUserId, "disabled");
    expect(await account(own.id)).toEqual({ locked: false, sessions: 1 });
  });

  it("a deleted user cannot be reactivated (identity_conflict); an unknown or another integration's user is not_found", async () => {
    const integration = await f.integration();
    const deleted = await f.user({ integration, status: "deleted" });
    expect(await refusal(setPartnerUserStatus(f.deps, integration, deleted.externalUserId, "active"))).toBe(
      "identity_conflict",
    );
    expect((await getPartnerUser(f.db, integration, deleted.externalUserId)).status).toBe("deleted");
    expect(await refusal(setPartnerUserStatus(f.deps, integration, "nobody", "disabled"))).toBe("not_found");
    const other = await f.integration();
    const elsewhere = await f.user({ integration: other });
    expect(await refusal(setPartnerUserStatus(f.deps, integration, elsewhere.externalUserId, "disabled"))).toBe(
      "not_found",
    );
    expect((await getPartnerUser(f.db, other, elsewhere.externalUserId)).status).toBe("active");
  });

  it("with the site-account system down the status still changes at once (site sync pending); the queued sync locks the account later, or marks it failed on its last attempt", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const accountId = await f.siteAccountOf(integration, user.externalUserId);
    f.outage.siteAccounts = true;
    let disabled;
    try {
      disabled = await setPartnerUserStatus(f.deps, integration, user.externalUserId, "disabled");
    } finally {
      f.outage.siteAccounts = false;
    }
    expect(disabled).toMatchObject({
      status: "disabled",
      wordpressSyncStatus: "pending",
      accessVersion: user.accessVersion + 1,
    });
    expect(await account(accountId)).toMatchObject({ locked: false });
    const { rows } = await f.db.sql.query<{ site_sync_version: number }>(
      "SELECT site_sync_version FROM partner_users WHERE id = $1",
      [user.id],
    );
    const job = {
      partnerUserId: user.id,
      accountId: accountId as string,
      accessVersion: disabled.accessVersion,
      syncVersion: rows[0]?.site_sync_version as number,
    };

    f.outage.siteAccounts = true;
    try {
      await expect(runSiteAccountSyncJob(f.deps, job, { last: false })).rejects.toThrow(/unavailable/);
      await runSiteAccountSyncJob(f.deps, job, { last: true });
    } finally {
      f.outage.siteAccounts = false;
    }
    expect((await getPartnerUser(f.db, integration, user.externalUserId)).wordpressSyncStatus).toBe("failed");
    await runSiteAccountSyncJob(f.deps, job, { last: false });
    expect(await account(accountId)).toMatchObject({ locked: true });
    expect((await getPartnerUser(f.db, integration, user.externalUserId)).wordpressSyncStatus).toBe("applied");
  });
});
