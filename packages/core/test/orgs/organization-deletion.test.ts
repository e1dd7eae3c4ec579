import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createOrganization } from "../../src/orgs/organizations";
import { createIntegration } from "../../src/partners/integrations/integrations";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";
import { seedDirectory } from "../../src/testing/seed-directory";
import { pagesRead, planOf } from "../support/database-probes";

/** What an organization's deletion (orgs/organization-deletion.ts) asks of the database, at any size. */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe("deleting an organization", () => {
  it("finds each deleted user's active-user days by the user, whatever the table holds", async () => {
    // PostgreSQL's foreign key looks them up for every deleted partner user: without an index
    // of their own, that was a scan of the whole table (kept 400 days) per user.
    const org = await createOrganization(t.db, { name: "Departing Lending" });
    const integration = await createIntegration(t.db, { organizationId: org.id, slug: "departing" });
    await seedDirectory(t.db, { integrationId: integration.id, users: 60, prefix: "active" });
    await t.db.sql.query(
      `INSERT INTO integration_active_users (day, integration_id, partner_user_id)
       SELECT current_date - d, integration_id, id FROM partner_users, generate_series(0, 399) AS d WHERE integration_id = $1`,
      [integration.id],
    );
    await t.db.sql.query("ANALYZE integration_active_users");
    // The foreign key's own statement (PostgreSQL's ri_triggers.c), for a user never active: it deletes nothing.
    const cascade = {
      text: 'DELETE FROM ONLY "public"."integration_active_users" WHERE $1 OPERATOR(pg_catalog.=) "partner_user_id"',
      values: ["pu_never_active"],
    };
    expect(pagesRead(await planOf(t.db, cascade, { analyze: true }))).toBeLessThan(10);
  });
});
