import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { findPartnerUser } from "../../../src/partners/users/get-user";
import { provisionPartnerUser } from "../../../src/partners/users/index";
import { findEmailHolders } from "../../../src/partners/users/one-user-per-email";
import { seedDirectory } from "../../../src/testing/seed-directory";
import { planOf, recordingDatabase, rowsRead, scansOf } from "../../support/database-probes";
import { openFixtures, refusal, type Fixtures } from "../../support/fixtures";

/** One person is one user per integration (one-user-per-email.ts); other partners may share the person. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

describe("one user per email in an integration", () => {
  it("a new user with another user's email, in any case, is identity_conflict and nothing is stored", async () => {
    const integration = await f.integration();
    const first = await f.user({ integration });
    const refused = provisionPartnerUser(f.deps, integration, "lo-second", { email: first.email.toUpperCase() });
    await expect(refused).rejects.toMatchObject({ code: "identity_conflict", field: "email" });
    await expect(refused).rejects.not.toThrow(first.externalUserId);
    expect(await findPartnerUser(f.db, integration, "lo-second")).toBeUndefined();
  });

  it("users of other integrations may have the address: they share the person's site account", async () => {
    const email = f.email();
    const [a, b] = [await f.integration(), await f.integration()];
    const first = await f.user({ integration: a, email });
    const second = await f.user({ integration: b, email });
    expect(first.identityOrigin).toBe("partner_created");
    expect(second.identityOrigin).toBe("existing_mg");
    expect(await f.siteAccountOf(b, second.externalUserId)).toBe(await f.siteAccountOf(a, first.externalUserId));
  });

  it("a deleted user's address is free again", async () => {
    const integration = await f.integration();
    const deleted = await f.user({ integration, status: "deleted" });
    const reused = await f.user({ integration, email: deleted.email });
    expect(reused.status).toBe("active");
  });

  it("two users provisioned with one address at the same moment: exactly one is created", async () => {
    const integration = await f.integration();
    const email = f.email();
    const results = await Promise.all(
      ["lo-x", "lo-y", "lo-z"].map((id) => refusal(provisionPartnerUser(f.deps, integration, id, { email }))),
    );
    expect(results.sort()).toEqual(["identity_conflict", "identity_conflict", "ok"]);
  });
});

describe("finding who holds an address", () => {
  // Asked by every PUT user and for every row of an import: in an integration of 100,000 users,
  // a lookup that walked the integration's users took about 90 ms, an import of 1,000 users 90 s.
  it("reads the address's own rows, not the integration's other users", async () => {
    const integration = await f.integration();
    await seedDirectory(f.db, { integrationId: integration.id, users: 2_000, prefix: "held" });
    // Operations that are not profile changes in progress, for the lookup's second half to pass over.
    for (let i = 0; i < 3; i++) await f.user({ integration, status: "deleted" });
    const late = `held-0001999@${integration.id.toLowerCase()}.seed.test`;
    const lookupOf = async (email: string) => {
      const recording = recordingDatabase(f.url, f.db.secrets);
      const holders = await findEmailHolders(recording.db, integration.id, [
        { email, externalUserId: "someone-else" },
      ]).finally(() => recording.db.close());
      const lookup = recording.queries.find((query) => query.text.includes("CROSS JOIN LATERAL"));
      if (!lookup) throw new Error("the holder lookup ran no statement this test knows");
      return { holders, lookup, plan: await planOf(f.db, lookup, { analyze: true }) };
    };

    // A held address: its holder's row alone (the second half, the changes in progress, never runs).
    const held = await lookupOf(late);
    expect(held.holders).toEqual([{ externalUserId: "held-0001999", changing: false }]);
    expect(rowsRead(held.plan, "partner_users")).toBe(1);
    // A free address: no user's row. The changes in progress are looked up by the address too;
    // the plan, not the rows read, says so: a table of a few operations is read whole anyway.
    const free = await lookupOf("nobody@lender.test");
    expect(free.holders).toEqual([undefined]);
    expect(rowsRead(free.plan, "partner_users")).toBe(0);
    const operations = scansOf(await planOf(f.db, free.lookup), "lifecycle_operations");
    expect(operations.length).toBeGreaterThan(0);
    for (const scan of operations) expect(scan["Index Cond"]).toContain("requested_email");
  });
});
