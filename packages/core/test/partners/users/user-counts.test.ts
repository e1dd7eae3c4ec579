import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { withTransaction } from "../../../src/db/transaction";
import { requestDeletion } from "../../../src/partners/operations/index";
import { setPartnerUserStatus } from "../../../src/partners/users/index";
import { countPartnerUsers, listPartnerUsers } from "../../../src/partners/users/list-users";
import { seedDirectory } from "../../../src/testing/seed-directory";
import { fullUserCount } from "../../support/database-probes";
import { openFixtures, type Fixtures } from "../../support/fixtures";

/** Spec 4.10's counts come from changes triggers append ("Directory at scale"): they must equal a full count whatever happens. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

const fullCount = (integrationId: string) => fullUserCount(f.db, integrationId);

describe("user counts", () => {
  it("equal a full count after concurrent provisioning, status changes, deletions, bulk updates and folds", async () => {
    const integration = await f.integration();
    const other = await f.integration();
    await seedDirectory(f.db, { integrationId: integration.id, users: 500, teams: 3 });
    await seedDirectory(f.db, { integrationId: other.id, users: 50, teams: 1, prefix: "other" });
    const seeded = (i: number) => `seed-${String(i).padStart(7, "0")}`;
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < 12; i += 1) work.push(f.user({ integration, status: i % 3 === 0 ? "pending" : "active" }));
    for (let i = 2; i <= 120; i += 10) work.push(setPartnerUserStatus(f.deps, integration, seeded(i), "disabled"));
    for (let i = 5; i <= 95; i += 10) work.push(setPartnerUserStatus(f.deps, integration, seeded(i), "active"));
    for (let i = 3; i <= 43; i += 10)
      work.push(requestDeletion(f.deps, integration, seeded(i), {}).then((op) => f.runOperation(op)));
    work.push(
      f.db.sql.query(
        "UPDATE partner_users SET provisioning_status = 'failed' WHERE integration_id = $1 AND external_user_id LIKE 'seed-00004%'",
        [integration.id],
      ),
    );
    // A change that rolls back leaves nothing behind.
    work.push(
      withTransaction(f.db, async (tx) => {
        await tx.sql.query("UPDATE partner_users SET status = 'disabled' WHERE integration_id = $1", [integration.id]);
        throw new Error("rolled back");
      }).catch(() => undefined),
    );
    // Reads fold the appended changes while the writes go on.
    for (let i = 0; i < 20; i += 1) work.push(countPartnerUsers(f.db, integration.id));
    await Promise.all(work);

    expect(await countPartnerUsers(f.db, integration.id)).toEqual(await fullCount(integration.id));
    expect(await countPartnerUsers(f.db, other.id)).toEqual(await fullCount(other.id));
    const { rows } = await f.db.sql.query<{ parts: number }>(
      "SELECT count(*)::int AS parts FROM partner_user_count_deltas WHERE integration_id = $1",
      [integration.id],
    );
    expect(rows[0]?.parts).toBeLessThanOrEqual(33);
  });

  it("a list's total matches its filter, whether taken from the counts or counted", async () => {
    const integration = await f.integration();
    const { teamExternalIds } = await seedDirectory(f.db, { integrationId: integration.id, users: 200, teams: 2 });
    const total = async (filters: Parameters<typeof listPartnerUsers>[2]) =>
      (await listPartnerUsers(f.db, integration, { ...filters, limit: 1, withTotal: true })).total;
    const counted = async (where: string, params: unknown[] = []) =>
      (
        await f.db.sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM partner_users u WHERE u.integration_id = $1 AND ${where}`,
          [integration.id, ...params],
        )
      ).rows[0]?.n;
    expect(await total({ limit: 1 })).toBe(await counted("u.status <> 'deleted'"));
    expect(await total({ limit: 1, status: "disabled" })).toBe(await counted("u.status = 'disabled'"));
    expect(await total({ limit: 1, status: "deleted" })).toBe(await counted("u.status = 'deleted'"));
    expect(await total({ limit: 1, unassigned: true })).toBe(
      await counted("u.status <> 'deleted' AND u.team_id IS NULL"),
    );
    expect(await total({ limit: 1, teamExternalId: teamExternalIds[1] })).toBe(
      await counted(
        "u.status <> 'deleted' AND u.team_id = (SELECT id FROM partner_teams WHERE external_team_id = $2 AND integration_id = $1)",
        [teamExternalIds[1]],
      ),
    );
    expect(await total({ limit: 1, q: "00001" })).toBe(
      await counted("u.status <> 'deleted' AND u.external_user_id LIKE '%00001%'"),
    );
    // `q` is taken literally: `_` and `%` are not wildcards.
    expect(await total({ limit: 1, q: "seed_0" })).toBe(0);
  });

  it("deleting an integration takes its users and counts with it", async () => {
    const integration = await f.integration();
    await seedDirectory(f.db, { integrationId: integration.id, users: 30 });
    await f.db.sql.query("DELETE FROM integrations WHERE id = $1", [integration.id]);
    const { rows } = await f.db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM partner_user_count_deltas WHERE integration_id = $1",
      [integration.id],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("every filter of the users list has its index", async () => {
    const { rows } = await f.db.sql.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'partner_users'",
    );
    const defs = rows.map((row) => row.indexdef.replace(/^.* USING /, ""));
    expect(defs).toEqual(
      expect.arrayContaining([
        "btree (integration_id, created_at, id)",
        "btree (integration_id, status, created_at, id)",
        "btree (team_id, created_at, id)",
        "btree (integration_id, created_at, id) WHERE (team_id IS NULL)",
        "gin (lower(external_user_id) gin_trgm_ops) WITH (fastupdate='on', gin_pending_list_limit='256')",
        "btree (integration_id, external_user_id)",
      ]),
    );
  });
});
