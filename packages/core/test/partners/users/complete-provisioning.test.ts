import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ChatIdentities } from "../../../src/partners/ports/chat-identities";
import type { SiteAccount, SiteAccounts } from "../../../src/partners/ports/site-accounts";
import { completeProvisioning } from "../../../src/partners/users/complete-provisioning";
import { findPartnerUser } from "../../../src/partners/users/get-user";
import { STORED_USER_COLUMNS, type StoredUser } from "../../../src/partners/users/stored-user";
import { openFixtures, type Fixtures } from "../../support/fixtures";

/**
 * Completing several users' provisioning at once (an import's chunk, PUT user's one): each
 * user ends as it would alone, and one user's failure at any port leaves only that user pending.
 */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

async function pendingUsers(count: number) {
  const integration = await f.integration();
  const users = [];
  for (let i = 0; i < count; i += 1)
    users.push(await f.user({ integration, externalUserId: `p-${i}`, status: "pending" }));
  const { rows } = await f.db.sql.query<StoredUser>(
    `SELECT ${STORED_USER_COLUMNS} FROM partner_users WHERE id = ANY($1::text[]) ORDER BY external_user_id`,
    [users.map((u) => u.id)],
  );
  return { integration, users, stored: rows };
}

const setupLinks = async (email: string) =>
  (
    await f.db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM notification_outbox WHERE recipient = $1 AND kind = 'password_setup'",
      [email],
    )
  ).rows[0]?.n;

/** The built-in site accounts, refusing to find one address. */
function siteFailingFor(email: string): SiteAccounts {
  const site = f.deps.siteAccounts;
  return new Proxy(site, {
    get(target, property, receiver) {
      if (property === "findByEmail")
        return (wanted: string): Promise<SiteAccount | null> =>
          wanted === email ? Promise.reject(new Error("site down for this one")) : target.findByEmail(wanted);
      return Reflect.get(target, property, receiver);
    },
  });
}

describe("completing several users' provisioning", () => {
  it("provisions every user as one at a time would: partner account, chat identity, one password-setup link each", async () => {
    const { integration, users, stored } = await pendingUsers(3);
    expect(await completeProvisioning(f.deps, stored, { concurrency: 2 })).toEqual([true, true, true]);
    for (const user of users) {
      expect(await findPartnerUser(f.db, integration, user.externalUserId)).toMatchObject({
        provisioningStatus: "active",
        identityOrigin: "partner_created",
        wordpressLinked: true,
        chatIdentityLinked: true,
      });
      expect(await setupLinks(user.email)).toBe(1);
    }
    // Done twice, nothing more is sent.
    expect(await completeProvisioning(f.deps, stored)).toEqual([true, true, true]);
    for (const user of users) expect(await setupLinks(user.email)).toBe(1);
  });

  it("a user whose site account cannot be found stays pending, the others are provisioned", async () => {
    const { integration, users, stored } = await pendingUsers(3);
    const failing = users[1] as (typeof users)[number];
    expect(
      await completeProvisioning({ ...f.deps, siteAccounts: siteFailingFor(failing.email) }, stored, {
        concurrency: 3,
      }),
    ).toEqual([true, false, true]);
    expect((await findPartnerUser(f.db, integration, failing.externalUserId))?.provisioningStatus).toBe("pending");
    expect(await setupLinks(failing.email)).toBe(0);
    for (const user of [users[0], users[2]])
      expect((await findPartnerUser(f.db, integration, user?.externalUserId ?? ""))?.provisioningStatus).toBe("active");
  });

  it("with a chat identity store without a batch method, one refused identity leaves only that user pending", async () => {
    const { integration, users, stored } = await pendingUsers(3);
    const refused = stored[2]?.id;
    const chat: ChatIdentities = {
      create: (input) =>
        input.partnerUserId === refused
          ? Promise.reject(new Error("chat store refused"))
          : f.deps.chatIdentities.create(input),
      block: (id) => f.deps.chatIdentities.block(id),
    };
    expect(await completeProvisioning({ ...f.deps, chatIdentities: chat }, stored)).toEqual([true, true, false]);
    const states = await Promise.all(
      users.map(async (user) => (await findPartnerUser(f.db, integration, user.externalUserId))?.provisioningStatus),
    );
    expect(states).toEqual(["active", "active", "pending"]);
    // Linked but not provisioned: no password-setup link yet.
    expect(await setupLinks((users[2] as (typeof users)[number]).email)).toBe(0);
  });

  it("a deleted or already provisioned user ends as it would alone, and is left as it is", async () => {
    const integration = await f.integration();
    const active = await f.user({ integration });
    const deleted = await f.user({ integration, status: "deleted" });
    const { rows } = await f.db.sql.query<StoredUser>(
      `SELECT ${STORED_USER_COLUMNS} FROM partner_users WHERE id = ANY($1::text[]) ORDER BY status`,
      [[active.id, deleted.id]],
    );
    expect(rows.map((row) => row.status)).toEqual(["active", "deleted"]);
    const alone = [];
    for (const row of rows) alone.push(...(await completeProvisioning(f.deps, [row])));
    expect(await completeProvisioning(f.deps, rows)).toEqual(alone);
    expect((await findPartnerUser(f.db, integration, deleted.externalUserId))?.status).toBe("deleted");
    expect(await setupLinks(active.email)).toBe(1);
  });
});
