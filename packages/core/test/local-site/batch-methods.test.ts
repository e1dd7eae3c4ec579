import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { LocalChatIdentities } from "../../src/local-site/chat-identities";
import { issuePasswordSetup, issuePasswordSetups } from "../../src/local-site/password-setup";
import { LocalSiteAccounts } from "../../src/local-site/site-accounts";
import { createChatIdentities } from "../../src/partners/ports/chat-identities";
import { sendPasswordSetups } from "../../src/partners/ports/site-accounts";
import { openFixtures, type Fixtures } from "../support/fixtures";

/** The built-in ports' batch methods end each item as the single method would, and one item's failure is its own. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

/** An account's password-setup links (live or not) and its notifications. */
async function linksOf(accountId: string) {
  const tokens = await f.db.sql.query<{ id: string; revoked: boolean }>(
    "SELECT id, revoked_at IS NOT NULL AS revoked FROM site_password_tokens WHERE site_account_id = $1 ORDER BY created_at, id",
    [accountId],
  );
  const sent = await f.db.sql.query<{ token_id: string; recipient: string }>(
    "SELECT payload->>'token_id' AS token_id, recipient FROM notification_outbox WHERE site_account_id = $1 AND kind = 'password_setup' ORDER BY created_at, id",
    [accountId],
  );
  return {
    live: tokens.rows.filter((t) => !t.revoked).map((t) => t.id),
    total: tokens.rows.length,
    notified: sent.rows.map((n) => n.token_id),
    recipients: sent.rows.map((n) => n.recipient),
  };
}

async function account(): Promise<{ id: string; email: string }> {
  return f.selfSiteAccount();
}

describe("password-setup links in a batch", () => {
  it("sendPasswordSetups ends like sendPasswordSetup: the older link withdrawn, one live link, its notification to the account's address", async () => {
    const site = new LocalSiteAccounts(f.db);
    const [one, many] = [await account(), await account()];
    for (const a of [one, many]) await site.sendPasswordSetup(a.id);
    await site.sendPasswordSetup(one.id);
    expect(await site.sendPasswordSetups([many.id])).toEqual([{ status: "fulfilled", value: undefined }]);
    const [single, batch] = [await linksOf(one.id), await linksOf(many.id)];
    for (const [links, a] of [
      [single, one],
      [batch, many],
    ] as const) {
      expect(links.total).toBe(2);
      expect(links.live).toHaveLength(1);
      // Every link was notified, and the live one is the latest notification's.
      expect(links.notified).toHaveLength(2);
      expect(links.notified[1]).toBe(links.live[0]);
      expect(links.recipients).toEqual([a.email, a.email]);
    }
  });

  it("an unknown account fails alone; the others get their link", async () => {
    const site = new LocalSiteAccounts(f.db);
    const [a, b] = [await account(), await account()];
    const results = await site.sendPasswordSetups([a.id, "sa_unknown", b.id]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: "not_found" });
    expect((await linksOf(a.id)).live).toHaveLength(1);
    expect((await linksOf(b.id)).live).toHaveLength(1);
    await expect(issuePasswordSetup(f.db, "sa_unknown")).rejects.toMatchObject({ code: "not_found" });
  });

  it("a link and its notification are written together or not at all (and the older link stays live then)", async () => {
    const [a, b] = [await account(), await account()];
    await issuePasswordSetup(f.db, a.id);
    const before = await linksOf(a.id);
    // The outbox refuses b's notification: the whole statement fails.
    await f.db.sql.query(
      `CREATE FUNCTION refuse_outbox() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.recipient = '${b.email}' THEN RAISE EXCEPTION 'outbox refused'; END IF; RETURN NEW; END $$`,
    );
    await f.db.sql.query(
      "CREATE TRIGGER refuse_outbox BEFORE INSERT ON notification_outbox FOR EACH ROW EXECUTE FUNCTION refuse_outbox()",
    );
    try {
      await expect(issuePasswordSetups(f.db, [a.id, b.id])).rejects.toThrow("outbox refused");
      await expect(issuePasswordSetup(f.db, b.id)).rejects.toThrow("outbox refused");
    } finally {
      await f.db.sql.query("DROP TRIGGER refuse_outbox ON notification_outbox; DROP FUNCTION refuse_outbox()");
    }
    expect(await linksOf(a.id)).toEqual(before);
    expect(await linksOf(b.id)).toEqual({ live: [], total: 0, notified: [], recipients: [] });
  });

  it("a site-account system without the batch method is called once per account, each failure its own", async () => {
    const [a, b] = [await account(), await account()];
    const local = new LocalSiteAccounts(f.db);
    const calls: string[] = [];
    const remote = {
      ...Object.fromEntries(
        [
          "findByEmail",
          "createPartnerAccount",
          "lock",
          "unlock",
          "destroySessions",
          "resetPassword",
          "sendEmailVerification",
          "updateProfile",
          "deleteAccount",
        ].map((m) => [m, () => Promise.reject(new Error("unused"))]),
      ),
      sendPasswordSetup: (id: string) => {
        calls.push(id);
        return id === b.id ? Promise.reject(new Error("unavailable")) : local.sendPasswordSetup(id);
      },
    } as unknown as LocalSiteAccounts;
    const results = await sendPasswordSetups(remote, [a.id, b.id]);
    expect(calls).toEqual([a.id, b.id]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    expect((await linksOf(a.id)).live).toHaveLength(1);
  });
});

describe("chat identities in a batch", () => {
  it("createMany ends like create: an existing identity is returned unchanged, new ones are made, a repeated input gets one", async () => {
    const chat = new LocalChatIdentities(f.db);
    const [x, y, z] = [await f.user(), await f.user(), await f.user()];
    const existing = await chat.create({ partnerUserId: x.id, generation: 2 });
    const results = await chat.createMany([
      { partnerUserId: x.id, generation: 2 },
      { partnerUserId: y.id, generation: 2 },
      { partnerUserId: y.id, generation: 2 },
      { partnerUserId: z.id, generation: 2 },
    ]);
    const ids = results.map((r) => (r.status === "fulfilled" ? r.value.id : "failed"));
    expect(ids[0]).toBe(existing.id);
    expect(ids[1]).toBe(ids[2]);
    expect(new Set(ids).size).toBe(3);
    // The single method now finds what the batch made.
    expect((await chat.create({ partnerUserId: z.id, generation: 2 })).id).toBe(ids[3]);
  });

  it("a store without the batch method is called once per input, each failure its own", async () => {
    const local = new LocalChatIdentities(f.db);
    const [x, y] = [await f.user(), await f.user()];
    const results = await createChatIdentities(
      {
        create: (input) => (input.partnerUserId === y.id ? Promise.reject(new Error("refused")) : local.create(input)),
        block: () => Promise.resolve(),
      },
      [
        { partnerUserId: x.id, generation: 3 },
        { partnerUserId: y.id, generation: 3 },
      ],
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    const stored = await f.db.sql.query<{ partner_user_id: string }>(
      "SELECT partner_user_id FROM chat_identities WHERE generation = 3 AND partner_user_id = ANY($1::text[])",
      [[x.id, y.id]],
    );
    expect(stored.rows.map((r) => r.partner_user_id)).toEqual([x.id]);
  });

  it("a batch that fails as a whole fails every input", async () => {
    const results = await createChatIdentities(
      {
        create: () => Promise.reject(new Error("x")),
        block: () => Promise.resolve(),
        createMany: () => Promise.reject(new Error("down")),
      },
      [
        { partnerUserId: "a", generation: 1 },
        { partnerUserId: "b", generation: 1 },
      ],
    );
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
