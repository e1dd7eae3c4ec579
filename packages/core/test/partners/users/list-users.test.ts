import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPartnerUsers } from "../../../src/partners/users/list-users";
import { type Fixtures, openFixtures, refusal } from "../../support/fixtures";

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
    expect(all.users.map((user) => user.externalUserId).sort()).toEqual([active.externalUserId, disabled.externalUserId, pending.externalUserId].sort());
    expect(all.counts).toEqual({ total: 3, active: 2, disabled: 1, deleted: 1, pending: 1, failed: 0 });
    expect(all.total).toBe(3);
    const onlyDeleted = await listPartnerUsers(f.db, integration, { limit: 25, status: "deleted" });
    expect(onlyDeleted.users.map((user) => user.externalUserId)).toEqual([deleted.externalUserId]);
    const inTeam = await listPartnerUsers(f.db, integration, { limit: 25, teamExternalId: team.externalTeamId, withTotal: true });
    expect(inTeam.users.map((user) => user.externalUserId)).toEqual([active.externalUserId]);
    expect(inTeam).toMatchObject({ total: 1, counts: all.counts });
    const unassigned = await listPartnerUsers(f.db, integration, { limit: 25, unassigned: true });
    expect(unassigned.users.map((user) => user.externalUserId).sort()).toEqual([disabled.externalUserId, pending.externalUserId].sort());
  });

  it("refuses q with external_user_id, unassigned with a team, and email searches", async () => {
    const integration = await f.integration();
    expect(await refusal(listPartnerUsers(f.db, integration, { limit: 25, q: "lo", externalUserId: "lo-1" }))).toBe("invalid_request");
    expect(await refusal(listPartnerUsers(f.db, integration, { limit: 25, unassigned: true, teamExternalId: "t" }))).toBe("invalid_request");
    expect(await refusal(listPartnerUsers(f.db, integration, { limit: 25, q: "someone@lender.test" }))).toBe("invalid_request");
    expect(await refusal(listPartnerUsers(f.db, integration, { limit: 25, externalUserId: "a@b.test" }))).toBe("invalid_request");
  });
});
