import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { listPartnerUsers } from "../../../src/partners/users/list-users";
import { seedDirectory } from "../../../src/testing/seed-directory";
import { openFixtures, refusal, type Fixtures } from "../../support/fixtures";

/** GET users (spec 4.10): filters, the whole integration's counts, and nothing of other integrations. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

describe("listing users", () => {
  it("counts the whole integration; deleted users appear only when asked for; other integrations never", async () => {
    const integration = await f.integration();
    const team = await f.team({ integration });
    const active = await f.user({ integration, team });
    const disabled = await f.user({ integration, status: "disabled" });
    const pending = await f.user({ integration, status: "pending" });
    const deleted = await f.user({ integration, status: "deleted" });
    await f.user({ integration: await f.integration() });

    const all = await listPartnerUsers(f.db, integration, { limit: 25, withTotal: true });
    expect(all.users.map((user) => user.externalUserId).sort()).toEqual(
      [active.externalUserId, disabled.externalUserId, pending.externalUserId].sort(),
    );
    expect(all.counts).toEqual({ total: 3, active: 2, disabled: 1, deleted: 1, pending: 1, failed: 0 });
    expect(all.total).toBe(3);
    const onlyDeleted = await listPartnerUsers(f.db, integration, { limit: 25, status: "deleted" });
    expect(onlyDeleted.users.map((user) => user.externalUserId)).toEqual([deleted.externalUserId]);
    const inTeam = await listPartnerUsers(f.db, integration, {
      limit: 25,
      teamExternalId: team.externalTeamId,
      withTotal: true,
    });
    expect(inTeam.users.map((user) => user.externalUserId)).toEqual([active.externalUserId]);
    expect(inTeam).toMatchObject({ total: 1, counts: all.counts });
    const unassigned = await listPartnerUsers(f.db, integration, { limit: 25, unassigned: true });
    expect(unassigned.users.map((user) => user.externalUserId).sort()).toEqual(
      [disabled.externalUserId, pending.externalUserId].sort(),
    );
  });

  it("refuses q with external_user_id, unassigned with a team, and email searches", async () => {
    const integration = await f.integration();
    expect(await refusal(listPartnerUsers(f.db, integration, { limit: 25, q: "lo", externalUserId: "lo-1" }))).toBe(
      "invalid_request",
    );
    expect(
      await refusal(listPartnerUsers(f.db, integration, { limit: 25, unassigned: true, teamExternalId: "t" })),
    ).toBe("invalid_request");
    expect(await refusal(listPartnerUsers(f.db, integration, { limit: 25, q: "someone@lender.test" }))).toBe(
      "invalid_request",
    );
    expect(await refusal(listPartnerUsers(f.db, integration, { limit: 25, externalUserId: "a@b.test" }))).toBe(
      "invalid_request",
    );
  });

  it("sorts by external id, name (case-blind, nameless last) or status, in stable pages, with each user's contact", async () => {
    const integration = await f.integration();
    const made = [
      await f.user({ integration, externalUserId: "c-3", name: "bea" }),
      await f.user({ integration, externalUserId: "a-1", name: "Cal", status: "disabled" }),
      await f.user({ integration, externalUserId: "b-2", name: "Abe" }),
      await f.user({ integration, externalUserId: "e-5", name: "Abe" }),
    ];
    await f.db.sql.query(
      "UPDATE partner_users SET name = NULL WHERE integration_id = $1 AND external_user_id = 'e-5'",
      [integration.id],
    );
    const walk = async (sort: "external_id" | "name" | "status" | "created") => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listPartnerUsers(f.db, integration, { limit: 1, sort, cursor });
        seen.push(...page.users.map((user) => user.externalUserId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    expect(await walk("external_id")).toEqual(["a-1", "b-2", "c-3", "e-5"]);
    expect(await walk("name")).toEqual(["b-2", "c-3", "a-1", "e-5"]);
    expect(await walk("status")).toEqual(["c-3", "b-2", "e-5", "a-1"]);
    expect(await walk("created")).toEqual(["c-3", "a-1", "b-2", "e-5"]);

    const first = await listPartnerUsers(f.db, integration, { limit: 2, sort: "name" });
    const contact = first.contacts.get(made[2]?.id ?? "");
    expect(contact).toEqual({ email: made[2]?.email, name: "Abe" });
    // A cursor of one order is refused by another: it would be a wrong page.
    expect(
      await refusal(
        listPartnerUsers(f.db, integration, { limit: 2, sort: "external_id", cursor: first.nextCursor ?? undefined }),
      ),
    ).toBe("invalid_request");
    expect(
      await refusal(listPartnerUsers(f.db, integration, { limit: 2, cursor: first.nextCursor ?? undefined })),
    ).toBe("invalid_request");
  });
});

/** The `q` search's trigram index ("Directory at scale"): a search never reads more than a small pending list. */
describe("the user search's index", () => {
  it("keeps its pending list within 256 kB through a bulk insert, so a search reads at most that", async () => {
    const integration = await f.integration();
    await seedDirectory(f.db, { integrationId: integration.id, users: 3_000, teams: 2, prefix: "bulk" });
    const found = await listPartnerUsers(f.db, integration, { limit: 25, q: "000012" });
    // User 120 is deleted (every twentieth is), so a list leaves it out.
    const expected = [12, 121, 122, 123, 124, 125, 126, 127, 128, 129].map((i) => `bulk-${String(i).padStart(7, "0")}`);
    expect(found.users.map((user) => user.externalUserId)).toEqual(expected);
    // The pages every search goes through until a vacuum or the next flush merges them: GIN's
    // default 4 MB would hold 3,000 users' trigrams whole (95 pages).
    const { rows } = await f.db.sql.query<{ pages: string }>(
      "SELECT gin_clean_pending_list('partner_users_external_user_id_trgm_idx'::regclass) AS pages",
    );
    expect(Number(rows[0]?.pages)).toBeLessThanOrEqual(256 / 8);
  });
});
