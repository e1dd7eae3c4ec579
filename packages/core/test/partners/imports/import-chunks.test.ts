import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createImport, getImport } from "../../../src/partners/imports/imports";
import type { IntegrationRecord } from "../../../src/partners/integrations/integrations";
import { patchTeam } from "../../../src/partners/teams/teams";
import { findPartnerUser } from "../../../src/partners/users/get-user";
import { provisionPartnerUser } from "../../../src/partners/users/index";
import { countPartnerUsers } from "../../../src/partners/users/list-users";
import { fullUserCount } from "../../support/database-probes";
import { openFixtures, type Fixtures } from "../../support/fixtures";

/**
 * Imports decide a chunk of rows in one transaction ("Directory at scale"): what the chunked
 * path could get wrong against PUT user's one-row path, a crash between chunks, the counts.
 */
let f: Fixtures;
beforeAll(async () => {
  f = await openFixtures();
});
afterAll(() => f.close());

type Row = { external_user_id: string; email: string; name?: string; team_external_id?: string | null };

/** An integration holding every case a row can meet, and rows for each (emails unique to this integration). */
async function mixedCase(tag: string): Promise<{ integration: IntegrationRecord; rows: Row[] }> {
  const integration = await f.integration();
  const mail = (local: string) => `${local}-${tag}@mixed.test`;
  await f.team({ integration, externalTeamId: "t-active" });
  await f.team({ integration, externalTeamId: "t-archived" });
  await patchTeam(f.db, integration, "t-archived", { status: "archived" });
  await f.user({ integration, externalUserId: "known", email: mail("known") });
  await f.user({
    integration,
    externalUserId: "moved",
    email: mail("moved"),
    team: await f.team({ integration, externalTeamId: "t-old" }),
  });
  await f.user({ integration, externalUserId: "known-2", email: mail("known-2") });
  await f.user({ integration, externalUserId: "gone", email: mail("gone"), status: "deleted" });
  await f.user({ integration, externalUserId: "stuck", email: mail("stuck"), status: "pending" });
  const filler = Array.from({ length: CHUNK + 10 }, (_, i) => ({
    external_user_id: `fill-${i}`,
    email: mail(`fill-${i}`),
  }));
  const rows: Row[] = [
    { external_user_id: "new-1", email: mail("new-1"), name: "New One", team_external_id: "t-active" },
    { external_user_id: "known", email: mail("KNOWN").toUpperCase() },
    { external_user_id: "moved", email: mail("moved"), team_external_id: "t-active" },
    { external_user_id: "stuck", email: mail("stuck"), team_external_id: null },
    { external_user_id: "clash", email: mail("known") },
    { external_user_id: "twin-a", email: mail("twin") },
    { external_user_id: "twin-b", email: mail("twin") },
    { external_user_id: "no-team", email: mail("no-team"), team_external_id: "missing" },
    { external_user_id: "archived", email: mail("archived"), team_external_id: "t-archived" },
    { external_user_id: "gone", email: mail("gone") },
    { external_user_id: "known-2", email: mail("someone-else") },
    { external_user_id: "new-2", email: mail("fill-3") },
    ...filler,
    // In the next chunk: an email taken by a row of the first chunk, and one of an earlier row of its own.
    { external_user_id: "late-clash", email: mail("new-1") },
    { external_user_id: "late-a", email: mail("late") },
    { external_user_id: "late-b", email: mail("late") },
  ];
  return { integration, rows };
}

/** What a row left behind, comparable across integrations (no ids, no emails). */
async function userState(integration: IntegrationRecord, externalUserId: string) {
  const user = await findPartnerUser(f.db, integration, externalUserId);
  return (
    user && {
      team: user.team?.externalTeamId ?? null,
      status: user.status,
      provisioning: user.provisioningStatus,
      origin: user.identityOrigin,
      assignments: user.assignmentVersion,
    }
  );
}

async function passwordSetups(tag: string): Promise<number> {
  const { rows } = await f.db.sql.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM notification_outbox WHERE kind = 'password_setup' AND recipient LIKE $1",
    [`%-${tag}@mixed.test`],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Rows per chunk in these tests: room for every case of `mixedCase` in the first chunk, small
 * enough that crossing chunks costs tens of rows, not hundreds (the row-by-row comparison is slow).
 */
const CHUNK = 20;

const fullCount = (integrationId: string) => fullUserCount(f.db, integrationId);

describe("a chunked import", () => {
  it("gives every row of mixed chunks the outcome, error and resulting user that PUT user gives row by row", async () => {
    const chunked = await mixedCase("chunked");
    const single = await mixedCase("single");
    const before = await passwordSetups("chunked");

    const { id } = await createImport(f.deps, chunked.integration, chunked.rows);
    await f.runImport(id, chunked.integration, undefined, CHUNK);
    const viaImport = (await getImport(f.db, chunked.integration, id)).results.map((row) => [
      row.externalUserId,
      row.outcome,
      row.errorCode,
      row.errorMessage?.replaceAll("chunked", "TAG") ?? null,
    ]);

    const viaPut: unknown[] = [];
    for (const row of single.rows) {
      const input = { email: row.email, name: row.name, teamExternalId: row.team_external_id };
      const outcome = await provisionPartnerUser(f.deps, single.integration, row.external_user_id, input).then(
        (result) => [result.outcome, null, null],
        (error: { code: string; message: string }) => ["failed", error.code, error.message.replaceAll("single", "TAG")],
      );
      viaPut.push([row.external_user_id, ...outcome]);
    }

    expect(viaImport).toEqual(viaPut);
    // The cases are all there (a mistake in the set-up would make both paths agree trivially).
    expect(viaImport.slice(0, 12).map((row) => [row[0], row[1], row[2]])).toEqual([
      ["new-1", "created", null],
      ["known", "existing", null],
      ["moved", "existing", null],
      ["stuck", "existing", null],
      ["clash", "failed", "identity_conflict"],
      ["twin-a", "created", null],
      ["twin-b", "failed", "identity_conflict"],
      ["no-team", "failed", "team_not_found"],
      ["archived", "failed", "team_archived"],
      ["gone", "failed", "identity_conflict"],
      ["known-2", "failed", "identity_conflict"],
      ["new-2", "created", null],
    ]);
    expect(viaImport.slice(-3).map((row) => row[1])).toEqual(["failed", "created", "failed"]);
    expect(viaImport.find((row) => row[0] === "fill-3")?.[1]).toBe("failed");

    for (const row of chunked.rows) {
      expect([row.external_user_id, await userState(chunked.integration, row.external_user_id)]).toEqual([
        row.external_user_id,
        await userState(single.integration, row.external_user_id),
      ]);
    }
    // One password-setup notification per account provisioning created, as row by row.
    expect((await passwordSetups("chunked")) - before).toBeGreaterThan(CHUNK + 10);
    expect(await passwordSetups("chunked")).toBe(await passwordSetups("single"));
    expect(await countPartnerUsers(f.db, chunked.integration.id)).toEqual(await fullCount(chunked.integration.id));
  });

  it("resumes after a crash between chunks without deciding a committed chunk again", async () => {
    const integration = await f.integration();
    const rows = Array.from({ length: CHUNK + 20 }, (_, i) => ({ external_user_id: `crash-${i}`, email: f.email() }));
    const crashAt = rows[CHUNK + 5]?.external_user_id;
    const { id } = await createImport(f.deps, integration, rows);
    // The process dies inside the second chunk (an error that is not a refusal of the data).
    await f.db.sql.query(
      `CREATE FUNCTION crash_import() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the process died'; END $$`,
    );
    await f.db.sql.query(
      `CREATE TRIGGER crash_import BEFORE INSERT ON partner_users FOR EACH ROW WHEN (NEW.external_user_id = '${crashAt}') EXECUTE FUNCTION crash_import()`,
    );
    try {
      await expect(f.runImport(id, integration, undefined, CHUNK)).rejects.toThrow(/the process died/);
    } finally {
      await f.db.sql.query("DROP TRIGGER crash_import ON partner_users; DROP FUNCTION crash_import()");
    }
    const halfway = await getImport(f.db, integration, id);
    expect(halfway).toMatchObject({ status: "processing", summary: { processed: CHUNK, created: CHUNK } });

    await f.runImport(id, integration, undefined, CHUNK);
    const result = await getImport(f.db, integration, id);
    // Decided again, the first chunk's rows would read "existing".
    expect(result).toMatchObject({
      status: "completed",
      summary: { processed: rows.length, created: rows.length, existing: 0, failed: 0 },
    });
    expect(await countPartnerUsers(f.db, integration.id)).toEqual(await fullCount(integration.id));
  });

  it("finishes, on resume, the provisioning of a committed chunk that a crash interrupted", async () => {
    const integration = await f.integration();
    const { id } = await createImport(f.deps, integration, [
      { external_user_id: "cut-1", email: f.email() },
      { external_user_id: "cut-2", email: f.email() },
    ]);
    f.outage.siteAccounts = true;
    try {
      await f.runImport(id, integration);
    } finally {
      f.outage.siteAccounts = false;
    }
    // What a crash right after the chunk's commit leaves: outcomes stored, provisioning not done.
    await f.db.sql.query("UPDATE import_job_rows SET outcome = 'created' WHERE job_id = $1", [id]);
    await f.db.sql.query("UPDATE import_jobs SET status = 'processing', completed_at = NULL WHERE id = $1", [id]);
    await f.runImport(id, integration);
    expect(await getImport(f.db, integration, id)).toMatchObject({
      status: "completed",
      summary: { created: 2, pending: 0 },
    });
    expect((await findPartnerUser(f.db, integration, "cut-1"))?.provisioningStatus).toBe("active");
    expect((await findPartnerUser(f.db, integration, "cut-2"))?.provisioningStatus).toBe("active");
  });

  it("does a chunk row by row when the database refuses what the chunk's reads allowed, and keeps the counts exact", async () => {
    const integration = await f.integration();
    const known = await f.user({ integration });
    const rows = [
      { external_user_id: "raced", email: f.email() },
      {
        external_user_id: known.externalUserId,
        email: known.email,
        team_external_id: (await f.team({ integration, externalTeamId: "t-1" })).externalTeamId,
      },
      { external_user_id: "fine", email: f.email() },
      { external_user_id: "refused", email: known.email },
    ];
    const { id } = await createImport(f.deps, integration, rows);
    // The chunk's insert of "raced" finds it gone (as when a PUT stores it meanwhile), once.
    await f.db.sql.query("CREATE SEQUENCE raced_once");
    await f.db.sql.query(
      `CREATE FUNCTION skip_raced() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF nextval('raced_once') = 1 THEN RETURN NULL; END IF; RETURN NEW; END $$`,
    );
    await f.db.sql.query(
      `CREATE TRIGGER skip_raced BEFORE INSERT ON partner_users FOR EACH ROW WHEN (NEW.external_user_id = 'raced') EXECUTE FUNCTION skip_raced()`,
    );
    let inserts: string | undefined;
    try {
      await f.runImport(id, integration);
      inserts = (await f.db.sql.query<{ last_value: string }>("SELECT last_value FROM raced_once")).rows[0]?.last_value;
    } finally {
      await f.db.sql.query(
        "DROP TRIGGER skip_raced ON partner_users; DROP FUNCTION skip_raced(); DROP SEQUENCE raced_once",
      );
    }
    // Tried by the chunk, then by the row-by-row path.
    expect(inserts).toBe("2");
    const result = await getImport(f.db, integration, id);
    expect(result.results.map((row) => [row.externalUserId, row.outcome, row.errorCode])).toEqual([
      ["raced", "created", null],
      [known.externalUserId, "existing", null],
      ["fine", "created", null],
      ["refused", "failed", "identity_conflict"],
    ]);
    expect((await findPartnerUser(f.db, integration, known.externalUserId))?.team?.externalTeamId).toBe("t-1");
    expect(await countPartnerUsers(f.db, integration.id)).toEqual(await fullCount(integration.id));
  });
});
