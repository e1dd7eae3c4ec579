import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ANSWER_STREAM_STATUSES } from "../../src/answers/answer-values";
import { MESSAGE_ROLES, MESSAGE_STATUSES } from "../../src/conversations/message-values";
import type { Sql } from "../../src/db/database";
import { ensureDatabase, quoteIdent } from "../../src/db/embedded-postgres";
import { findMigrationsDir, migrateDatabase } from "../../src/db/migrate";
import { IDEMPOTENCY_STATES } from "../../src/idempotency/idempotency-values";
import { createApiKey } from "../../src/keys/api-keys";
import { KEY_STATUSES } from "../../src/keys/key-status";
import { SCOPES } from "../../src/keys/scopes";
import { createOrganization } from "../../src/orgs/organizations";
import { IMPORT_ROW_OUTCOMES, IMPORT_STATUSES } from "../../src/partners/imports/import-values";
import { INTEGRATION_STATUSES } from "../../src/partners/integrations/integration-status";
import {
  OPERATION_AUTHORITIES,
  OPERATION_STATUSES,
  OPERATION_TYPES,
} from "../../src/partners/operations/operation-values";
import { NOTIFICATION_KINDS, SITE_ACCOUNT_ORIGINS } from "../../src/partners/ports/site-account-values";
import { TEAM_STATUSES } from "../../src/partners/teams/team-status";
import {
  EXPERIENCE_TYPES,
  IDENTITY_ORIGINS,
  MAPPING_STATUSES,
  PROVISIONING_STATUSES,
  SYNC_STATUSES,
  USER_STATUSES,
} from "../../src/partners/users/partner-user-values";
import { STAFF_ROLES } from "../../src/staff/staff-values";
import { createTestDatabase, TEST_ADMIN_URL_ENV, type TestDatabase } from "../../src/testing/index";
import { USAGE_STATUS_CLASSES } from "../../src/usage/usage-values";
import { EVENT_TYPES, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ENDPOINT_STATUSES } from "../../src/webhooks/event-values";

/** Every column holding a closed value set, with the list its CHECK constraint must equal. */
const CHECKED_COLUMNS: Record<string, readonly string[]> = {
  "api_keys.status": KEY_STATUSES,
  "api_keys.scopes": SCOPES,
  "idempotency_records.state": IDEMPOTENCY_STATES,
  "site_accounts.origin": SITE_ACCOUNT_ORIGINS,
  "notification_outbox.kind": NOTIFICATION_KINDS,
  "messages.role": MESSAGE_ROLES,
  "messages.status": MESSAGE_STATUSES,
  "integrations.status": INTEGRATION_STATUSES,
  "partner_teams.status": TEAM_STATUSES,
  "partner_users.status": USER_STATUSES,
  "partner_users.provisioning_status": PROVISIONING_STATUSES,
  "partner_users.profile_sync_status": SYNC_STATUSES,
  "partner_users.wordpress_sync_status": SYNC_STATUSES,
  "partner_users.mapping_status": MAPPING_STATUSES,
  "partner_users.identity_origin": IDENTITY_ORIGINS,
  "partner_users.experience_type": EXPERIENCE_TYPES,
  "lifecycle_operations.type": OPERATION_TYPES,
  "lifecycle_operations.status": OPERATION_STATUSES,
  "lifecycle_operations.authorized_by": OPERATION_AUTHORITIES,
  "import_jobs.status": IMPORT_STATUSES,
  "import_job_rows.outcome": IMPORT_ROW_OUTCOMES,
  "staff_accounts.role": STAFF_ROLES,
  "staff_invites.role": STAFF_ROLES,
  "answer_streams.status": ANSWER_STREAM_STATUSES,
  "events.type": EVENT_TYPES,
  "webhook_endpoints.event_types": EVENT_TYPES,
  "webhook_endpoints.status": WEBHOOK_ENDPOINT_STATUSES,
  "webhook_deliveries.status": WEBHOOK_DELIVERY_STATUSES,
  "usage_daily.status_class": USAGE_STATUS_CLASSES,
};

const CHECK_VIOLATION = "23514";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

/** The single-column CHECK constraints of the migrated schema, as "table.column" → the quoted values, in order. */
async function checkConstraints(pool: Sql): Promise<Record<string, string[]>> {
  const { rows } = await pool.query<{ target: string; definition: string }>(
    `SELECT c.conrelid::regclass::text || '.' || a.attname AS target, pg_get_constraintdef(c.oid) AS definition
     FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
     WHERE c.contype = 'c' AND c.connamespace = 'public'::regnamespace AND cardinality(c.conkey) = 1`,
  );
  // PostgreSQL stores `IN (...)` as `= ANY (ARRAY['a'::text, ...])`: the literals, in the list's order.
  return Object.fromEntries(
    rows.map((row) => [
      row.target,
      [...row.definition.matchAll(/'((?:[^']|'')*)'::text/g)].map((m) => (m[1] ?? "").replaceAll("''", "'")),
    ]),
  );
}

describe("closed value sets", () => {
  it("every list equals its column's CHECK constraint in the database, and no other constraint lists values", async () => {
    const constraints = await checkConstraints(t.db.sql);
    expect(Object.keys(constraints).sort()).toEqual(Object.keys(CHECKED_COLUMNS).sort());
    for (const [target, list] of Object.entries(CHECKED_COLUMNS))
      expect({ target, values: constraints[target] }).toEqual({ target, values: [...list] });
  });

  it("the database refuses a value outside the list, on insert and on update, and changes nothing", async () => {
    const org = await createOrganization(t.db, { name: "Closed Values Lending" });
    const insert = t.db.sql.query(
      "INSERT INTO integrations (id, organization_id, slug, status) VALUES ('int_bad', $1, 'bad-status', 'paused')",
      [org.id],
    );
    await expect(insert).rejects.toMatchObject({ code: CHECK_VIOLATION, constraint: "integrations_status_check" });
    expect((await t.db.sql.query("SELECT 1 FROM integrations WHERE id = 'int_bad'")).rowCount).toBe(0);

    const { key } = await createApiKey(t.db, { organizationId: org.id, name: "server", scopes: "chat:read" });
    const update = t.db.sql.query("UPDATE api_keys SET status = 'Active' WHERE id = $1", [key.id]);
    await expect(update).rejects.toMatchObject({ code: CHECK_VIOLATION, constraint: "api_keys_status_check" });
    expect((await t.db.sql.query("SELECT status FROM api_keys WHERE id = $1", [key.id])).rows).toEqual([
      { status: "active" },
    ]);

    // An array column's constraint checks every element.
    const scopes = t.db.sql.query("UPDATE api_keys SET scopes = ARRAY['chat:read', 'chat:admin'] WHERE id = $1", [
      key.id,
    ]);
    await expect(scopes).rejects.toMatchObject({ code: CHECK_VIOLATION, constraint: "api_keys_scopes_check" });
    expect((await t.db.sql.query("SELECT scopes FROM api_keys WHERE id = $1", [key.id])).rows).toEqual([
      { scopes: ["chat:read"] },
    ]);

    // Nullable columns stay nullable: NULL is not a value outside the list.
    await expect(t.db.sql.query("UPDATE partner_users SET identity_origin = NULL WHERE false")).resolves.toBeDefined();
  });
});

describe("the closed-value migration", () => {
  const adminUrl = () => process.env[TEST_ADMIN_URL_ENV] as string;
  const name = `closed_values_upgrade_${process.pid}`;
  const url = () => Object.assign(new URL(adminUrl()), { pathname: `/${name}` }).toString();
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await admin.end();
  });

  it("keeps a revoked key revoked when api_keys.status turns from an enum type into checked text", async () => {
    const all = findMigrationsDir();
    const before = mkdtempSync(path.join(os.tmpdir(), "mga-migrations-"));
    dirs.push(before);
    cpSync(all, before, {
      recursive: true,
      filter: (source) => !path.basename(source).endsWith("_closed_value_checks"),
    });
    await ensureDatabase(adminUrl(), name);
    await migrateDatabase(url(), before);

    const pool = new pg.Pool({ connectionString: url() });
    try {
      await pool.query("INSERT INTO organizations (id, name, updated_at) VALUES ('org_old', 'Old', now())");
      await pool.query(
        `INSERT INTO api_keys (id, organization_id, name, secret_hash, last_four, scopes, status) VALUES
         ('key_live', 'org_old', 'live', 'h1', 'aaaa', '{}', 'active'), ('key_gone', 'org_old', 'gone', 'h2', 'bbbb', '{}', 'revoked')`,
      );
      const result = await migrateDatabase(url(), all);
      expect(result.applied.map((applied) => applied.replace(/^\d+_/, ""))).toEqual(["closed_value_checks"]);
      const { rows } = await pool.query("SELECT id, status, pg_typeof(status)::text AS type FROM api_keys ORDER BY id");
      expect(rows).toEqual([
        { id: "key_gone", status: "revoked", type: "text" },
        { id: "key_live", status: "active", type: "text" },
      ]);
      expect((await pool.query("SELECT 1 FROM pg_type WHERE typname = 'ApiKeyStatus'")).rowCount).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
