import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { getOperation, requestDeletion, requestProfileChange } from "../../../src/partners/operations/index";
import { getPartnerUser } from "../../../src/partners/users/index";
import { launchEligibility } from "../../../src/partners/users/partner-user";
import { openFixtures, refusal, type Fixtures } from "../../support/fixtures";

/** POST deletions (spec 3.1): access cut at the request, the rest done by the worker. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

const siteAccount = async (id: string | null) =>
  (
    await f.db.sql.query<{ deleted: boolean; email: string }>(
      "SELECT deleted_at IS NOT NULL AS deleted, email FROM site_accounts WHERE id = $1",
      [id],
    )
  ).rows[0];
const chatIdentityBlocked = async (userId: string) =>
  (
    await f.db.sql.query<{ blocked: boolean }>("SELECT blocked FROM chat_identities WHERE partner_user_id = $1", [
      userId,
    ])
  ).rows.map((row) => row.blocked);
const notificationCount = async () =>
  (await f.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM notification_outbox")).rows[0]?.n;

describe("deletion", () => {
  it("cuts access at the request; the worker deletes the partner-created account, blocks the chat identity, erases personal data and sends nothing", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const accountId = await f.siteAccountOf(integration, user.externalUserId);
    const operationId = await requestDeletion(f.deps, integration, user.externalUserId, { note: "left the company" });

    const cut = await getPartnerUser(f.db, integration, user.externalUserId);
    expect(cut).toMatchObject({
      status: "disabled",
      accessVersion: user.accessVersion + 1,
      lifecycleOperation: { id: operationId, type: "deletion", status: "queued" },
    });
    expect(launchEligibility(cut).canLaunch).toBe(false);
    const notificationsBefore = await notificationCount();

    await f.runOperation(operationId);
    expect(await getOperation(f.db, integration, operationId)).toMatchObject({
      status: "completed",
      errorCode: null,
      completedAt: expect.any(Date),
    });
    const deleted = await getPartnerUser(f.db, integration, user.externalUserId);
    expect(deleted).toMatchObject({
      status: "deleted",
      mappingStatus: "unmapped",
      wordpressLinked: false,
      chatIdentityLinked: false,
      team: null,
    });
    expect(launchEligibility(deleted).blockingReasons).toContain("deleted");
    const contact = await f.db.sql.query("SELECT email, name FROM partner_users WHERE id = $1", [user.id]);
    expect(contact.rows[0]).toEqual({ email: "", name: null });
    expect(await siteAccount(accountId)).toEqual({ deleted: true, email: `deleted+${accountId}@invalid` });
    expect(await chatIdentityBlocked(user.id)).toEqual([true]);
    expect(await notificationCount()).toBe(notificationsBefore);
  });

  it("detaches a pre-existing account instead of deleting it", async () => {
    const integration = await f.integration();
    const own = await f.selfSiteAccount();
    const user = await f.user({ integration, email: own.email });
    await f.runOperation(await requestDeletion(f.deps, integration, user.externalUserId, {}));
    expect((await getPartnerUser(f.db, integration, user.externalUserId)).status).toBe("deleted");
    expect(await siteAccount(own.id)).toEqual({ deleted: false, email: own.email });
  });

  it("a second request while one is under way is answered with the same operation; once deleted it is identity_conflict", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const first = await requestDeletion(f.deps, integration, user.externalUserId, {});
    expect(await requestDeletion(f.deps, integration, user.externalUserId, {})).toBe(first);
    expect((await getPartnerUser(f.db, integration, user.externalUserId)).accessVersion).toBe(user.accessVersion + 1);
    await f.runOperation(first);
    expect(await refusal(requestDeletion(f.deps, integration, user.externalUserId, {}))).toBe("identity_conflict");
  });

  it("cancels a profile change still waiting", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const rename = await requestProfileChange(f.deps, integration, user.externalUserId, { name: "New Name" });
    const deletion = await requestDeletion(f.deps, integration, user.externalUserId, {});
    expect((await getOperation(f.db, integration, rename)).status).toBe("cancelled");
    await f.runOperation(rename);
    await f.runOperation(deletion);
    expect((await getOperation(f.db, integration, rename)).status).toBe("cancelled");
    expect((await getPartnerUser(f.db, integration, user.externalUserId)).status).toBe("deleted");
  });

  it("a worker run repeated after completion changes nothing", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const operationId = await requestDeletion(f.deps, integration, user.externalUserId, {});
    await f.runOperation(operationId);
    const done = await getPartnerUser(f.db, integration, user.externalUserId);
    await f.runOperation(operationId);
    expect(await getPartnerUser(f.db, integration, user.externalUserId)).toEqual(done);
  });

  it("while the site-account system is down the worker asks for a retry; its last attempt fails the operation and the user stays without access", async () => {
    const integration = await f.integration();
    const user = await f.user({ integration });
    const operationId = await requestDeletion(f.deps, integration, user.externalUserId, {});
    f.outage.siteAccounts = true;
    try {
      await expect(f.runOperation(operationId)).rejects.toThrow(/unavailable/);
      expect((await getOperation(f.db, integration, operationId)).status).toBe("processing");
      await f.runOperation(operationId, { last: true });
    } finally {
      f.outage.siteAccounts = false;
    }
    expect(await getOperation(f.db, integration, operationId)).toMatchObject({
      status: "failed",
      errorCode: "deletion_failed",
    });
    expect((await getPartnerUser(f.db, integration, user.externalUserId)).status).toBe("disabled");
  });

  it("only the integration's own users and operations: another integration's are not_found", async () => {
    const [mine, theirs] = [await f.integration(), await f.integration()];
    const their = await f.user({ integration: theirs });
    expect(await refusal(requestDeletion(f.deps, mine, their.externalUserId, {}))).toBe("not_found");
    const operationId = await requestDeletion(f.deps, theirs, their.externalUserId, {});
    expect(await refusal(getOperation(f.db, mine, operationId))).toBe("not_found");
    expect((await getPartnerUser(f.db, theirs, their.externalUserId)).status).toBe("disabled");
  });
});
