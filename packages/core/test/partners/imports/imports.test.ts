import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createImport, getImport, listImports, MAX_IMPORT_USERS } from "../../../src/partners/imports/imports";
import { patchTeam } from "../../../src/partners/teams/teams";
import { getPartnerUser } from "../../../src/partners/users/index";
import { openFixtures, refusal, type Fixtures } from "../../support/fixtures";

/** Bulk imports (spec 3.8, 4.10): every row gets an outcome; a row's refusal is that row's failure, not the job's. */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

describe("accepting an import", () => {
  it("refuses no users, more than 1,000, and repeated external ids, creating no job", async () => {
    const integration = await f.integration();
    const row = (i: number) => ({ external_user_id: `lo-${i}`, email: `lo-${i}@x.test` });
    expect(await refusal(createImport(f.deps, integration, []))).toBe("invalid_request");
    expect(
      await refusal(
        createImport(
          f.deps,
          integration,
          Array.from({ length: MAX_IMPORT_USERS + 1 }, (_, i) => row(i)),
        ),
      ),
    ).toBe("invalid_request");
    await expect(createImport(f.deps, integration, [row(1), row(2), row(1)])).rejects.toThrow(/repeated: lo-1$/);
    expect((await listImports(f.db, integration, { limit: 10, withTotal: true })).total).toBe(0);
  });

  it("is queued with every row waiting; only its own integration can read it", async () => {
    const [integration, other] = [await f.integration(), await f.integration()];
    const created = await createImport(f.deps, integration, [{ external_user_id: "lo-1", email: f.email() }]);
    expect(created).toMatchObject({
      status: "queued",
      total: 1,
      results: [],
      summary: { processed: 0, created: 0, failed: 0 },
    });
    // What the request answers is what is stored (a worker may take the job before the answer leaves).
    expect(await getImport(f.db, integration, created.id)).toEqual(created);
    expect(await refusal(getImport(f.db, other, created.id))).toBe("not_found");
    expect((await listImports(f.db, other, { limit: 10, withTotal: true })).total).toBe(0);
  });
});

describe("running an import", () => {
  it("completes with each row's outcome: created, existing, and failed rows with their error code", async () => {
    const integration = await f.integration();
    const team = await f.team({ integration });
    const archived = await f.team({ integration });
    await patchTeam(f.db, integration, archived.externalTeamId, { status: "archived" });
    const known = await f.user({ integration });
    const { id } = await createImport(f.deps, integration, [
      { external_user_id: "new-1", email: f.email(), team_external_id: team.externalTeamId },
      { external_user_id: known.externalUserId, email: known.email },
      { external_user_id: "clash", email: known.email },
      { external_user_id: "no-team", email: f.email(), team_external_id: "missing" },
      { external_user_id: "archived-team", email: f.email(), team_external_id: archived.externalTeamId },
      { external_user_id: "other-email", email: f.email() },
    ]);
    await f.runImport(id, integration);
    const result = await getImport(f.db, integration, id);
    expect(result).toMatchObject({
      status: "completed",
      total: 6,
      completedAt: expect.any(Date),
      summary: { processed: 6, created: 2, existing: 1, pending: 0, failed: 3 },
    });
    expect(result.results.map((row) => [row.externalUserId, row.outcome, row.errorCode])).toEqual([
      ["new-1", "created", null],
      [known.externalUserId, "existing", null],
      ["clash", "failed", "identity_conflict"],
      ["no-team", "failed", "team_not_found"],
      ["archived-team", "failed", "team_archived"],
      ["other-email", "created", null],
    ]);
    expect(result.results.find((row) => row.outcome === "failed")?.errorMessage).toMatch(/one user per integration/);
    expect((await getPartnerUser(f.db, integration, "new-1")).team?.externalTeamId).toBe(team.externalTeamId);
    expect((await listImports(f.db, integration, { limit: 10 })).imports).toEqual([
      expect.objectContaining({ id, status: "completed", total: 6, processed: 6, failed: 3 }),
    ]);
  });

  it("a row that omits the team keeps the user's assignment; a null team clears it", async () => {
    const integration = await f.integration();
    const team = await f.team({ integration });
    const [keep, clear] = [await f.user({ integration, team }), await f.user({ integration, team })];
    const { id } = await createImport(f.deps, integration, [
      { external_user_id: keep.externalUserId, email: keep.email },
      { external_user_id: clear.externalUserId, email: clear.email, team_external_id: null },
    ]);
    await f.runImport(id, integration);
    expect((await getPartnerUser(f.db, integration, keep.externalUserId)).team?.externalTeamId).toBe(
      team.externalTeamId,
    );
    expect((await getPartnerUser(f.db, integration, clear.externalUserId)).team).toBeNull();
  });

  it("rows whose provisioning cannot finish yet are pending, and the job still completes", async () => {
    const integration = await f.integration();
    const { id } = await createImport(f.deps, integration, [{ external_user_id: "later", email: f.email() }]);
    f.outage.siteAccounts = true;
    try {
      await f.runImport(id, integration);
    } finally {
      f.outage.siteAccounts = false;
    }
    expect(await getImport(f.db, integration, id)).toMatchObject({
      status: "completed",
      summary: { pending: 1 },
      results: [{ externalUserId: "later", outcome: "pending" }],
    });
    expect((await getPartnerUser(f.db, integration, "later")).provisioningStatus).toBe("pending");
  });

  it("a run repeated after a crash resumes: rows with an outcome keep it, only the rest are provisioned", async () => {
    const integration = await f.integration();
    const { id } = await createImport(f.deps, integration, [
      { external_user_id: "a", email: f.email() },
      { external_user_id: "b", email: f.email() },
    ]);
    await f.runImport(id, integration);
    // The crash: row b's outcome was never written, the job never completed.
    await f.db.sql.query("UPDATE import_job_rows SET outcome = NULL WHERE job_id = $1 AND external_user_id = 'b'", [
      id,
    ]);
    await f.db.sql.query("UPDATE import_jobs SET status = 'processing', completed_at = NULL WHERE id = $1", [id]);
    await f.runImport(id, integration);
    const result = await getImport(f.db, integration, id);
    // Provisioned again, row a would read "existing".
    expect(result.results.map((row) => [row.externalUserId, row.outcome])).toEqual([
      ["a", "created"],
      ["b", "existing"],
    ]);
    expect(result).toMatchObject({ status: "completed", summary: { processed: 2 } });
  });
});
