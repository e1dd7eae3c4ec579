import type { Database } from "../../db/database";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import { endLaunchesThroughAlias } from "../../launches/launch-bindings";
import { getOrganization } from "../../orgs/organizations";
import { assertChatAnswersPerUser } from "../../rate-limits/chat-answer-limit";
import type { IntegrationStatus } from "./integration-status";
import { assertIntegrationSlug } from "./slug";

export interface IntegrationRecord {
  id: string;
  organizationId: string;
  slug: string;
  status: IntegrationStatus;
  /** Hosted-chat answers one of its users may get per minute; null: the service default. */
  chatAnswersPerUserPerMinute: number | null;
  aliases: Array<{ slug: string; grantedKeyIds: string[] }>;
}

/** The integration a partner request acts on: always the canonical one, even when named by an alias. */
export interface ResolvedIntegration {
  id: string;
  organizationId: string;
  slug: string;
}

export async function createIntegration(
  db: Database,
  input: {
    organizationId: string;
    slug: string;
    aliases?: string[];
    status?: IntegrationStatus;
    chatAnswersPerUserPerMinute?: number | null;
  },
): Promise<IntegrationRecord> {
  await getOrganization(db, input.organizationId);
  assertChatAnswersPerUser(input.chatAnswersPerUserPerMinute ?? null);
  const slug = assertIntegrationSlug(input.slug, "slug");
  const aliases = [...new Set((input.aliases ?? []).map((alias) => assertIntegrationSlug(alias, "alias")))];
  if (aliases.includes(slug)) throw new AppError("invalid_request", "alias: must differ from the canonical slug");
  await assertSlugsFree(db, input.organizationId, [slug], "slug");
  await assertSlugsFree(db, input.organizationId, aliases, "aliases");
  const id = newId("int");
  await withTransaction(db, async (tx) => {
    await tx.sql.query(
      "INSERT INTO integrations (id, organization_id, slug, status, chat_answers_per_user_per_minute) VALUES ($1, $2, $3, $4, $5)",
      [id, input.organizationId, slug, input.status ?? "active", input.chatAnswersPerUserPerMinute ?? null],
    );
    for (const alias of aliases) await addAlias(tx, id, input.organizationId, alias);
  });
  return getIntegration(db, input.organizationId, slug);
}

export async function updateIntegration(
  db: Database,
  input: {
    organizationId: string;
    slug: string;
    status?: IntegrationStatus;
    /** Undefined: unchanged; null: back to the default. */
    chatAnswersPerUserPerMinute?: number | null;
    addAliases?: string[];
    removeAliases?: string[];
  },
): Promise<IntegrationRecord> {
  if (input.chatAnswersPerUserPerMinute !== undefined) assertChatAnswersPerUser(input.chatAnswersPerUserPerMinute);
  const current = await getIntegration(db, input.organizationId, input.slug);
  const add = [...new Set((input.addAliases ?? []).map((alias) => assertIntegrationSlug(alias, "alias")))];
  // Adding an alias the integration already has is refused, not reported as done.
  const existing = add.filter((alias) => current.aliases.some((known) => known.slug === alias));
  if (existing.length)
    throw new AppError("invalid_request", `the name ${existing.join(", ")} is already an alias of ${current.slug}`, {
      field: "alias",
    });
  await assertSlugsFree(db, input.organizationId, add, "alias");
  // The per-user chat limit is read by each answer's count: it applies from the next answer on, on every instance.
  const changes: Array<[column: string, value: unknown]> = [];
  if (input.status) changes.push(["status", input.status]);
  if (input.chatAnswersPerUserPerMinute !== undefined)
    changes.push(["chat_answers_per_user_per_minute", input.chatAnswersPerUserPerMinute]);
  await withTransaction(db, async (tx) => {
    if (changes.length) {
      const set = changes.map(([column], index) => `${column} = $${index + 2}`).join(", ");
      // Disabling moves access_version: launches snapshot it, so enabling again revives nothing issued before.
      const bump = input.status && input.status !== "active" ? ", access_version = access_version + 1" : "";
      const { rowCount } = await tx.sql.query(
        `UPDATE integrations SET ${set}${bump}, updated_at = now() WHERE id = $1`,
        [current.id, ...changes.map(([, value]) => value)],
      );
      // Removed meanwhile: a 404, as Prisma's update made it.
      if (!rowCount) throw new AppError("not_found", "this record no longer exists");
    }
    for (const alias of add) await addAlias(tx, current.id, input.organizationId, alias);
    const removed = await tx.sql.query<{ slug: string }>(
      "DELETE FROM integration_aliases WHERE integration_id = $1 AND slug = ANY($2::text[]) RETURNING slug",
      [current.id, input.removeAliases ?? []],
    );
    // Removing an alias withdraws it from every key it was granted to.
    if (removed.rowCount)
      await endLaunchesThroughAlias(tx, { integrationId: current.id, aliases: removed.rows.map((row) => row.slug) });
  });
  return getIntegration(db, input.organizationId, input.slug);
}

/** Grants (or revokes) one key the use of an alias: without a grant the alias resolves for no one. */
export async function setAliasGrant(
  db: Database,
  input: { organizationId: string; alias: string; apiKeyId: string; granted: boolean },
): Promise<IntegrationRecord> {
  const { rows: aliases } = await db.sql.query<{ id: string; integrationId: string; integrationSlug: string }>(
    `SELECT a.id, i.id AS "integrationId", i.slug AS "integrationSlug" FROM integration_aliases a JOIN integrations i ON i.id = a.integration_id WHERE a.organization_id = $1 AND a.slug = $2`,
    [input.organizationId, input.alias],
  );
  const alias = aliases[0];
  if (!alias) throw new AppError("not_found", `alias ${input.alias} not found in this organization`);
  const { rows: keys } = await db.sql.query<{ id: string; status: string }>(
    "SELECT id, status FROM api_keys WHERE id = $1 AND organization_id = $2",
    [input.apiKeyId, input.organizationId],
  );
  const key = keys[0];
  if (!key) throw new AppError("not_found", `key ${input.apiKeyId} not found in this organization`);
  if (input.granted && key.status !== "active") throw new AppError("invalid_request", `key ${key.id} is revoked`);
  await withTransaction(db, async (tx) => {
    // Changed in the database, not read-modified-written: two grants at once both stay.
    await tx.sql.query(
      `UPDATE integration_aliases
       SET granted_key_ids = CASE WHEN $3::boolean THEN array_append(array_remove(granted_key_ids, $2), $2) ELSE array_remove(granted_key_ids, $2) END
       WHERE id = $1`,
      [alias.id, key.id, input.granted],
    );
    if (!input.granted)
      await endLaunchesThroughAlias(tx, {
        integrationId: alias.integrationId,
        aliases: [input.alias],
        apiKeyId: key.id,
      });
  });
  return getIntegration(db, input.organizationId, alias.integrationSlug);
}

export async function getIntegration(db: Database, organizationId: string, slug: string): Promise<IntegrationRecord> {
  const { rows } = await db.sql.query<IntegrationRecord>(
    `SELECT ${COLUMNS} FROM integrations i WHERE i.organization_id = $1 AND i.slug = $2`,
    [organizationId, slug],
  );
  if (!rows[0]) throw new AppError("not_found", `integration ${slug} not found in this organization`);
  return rows[0];
}

/** By id, for staff (the console links integrations by id). */
export async function getIntegrationById(db: Database, id: string): Promise<IntegrationRecord> {
  const { rows } = await db.sql.query<IntegrationRecord>(`SELECT ${COLUMNS} FROM integrations i WHERE i.id = $1`, [id]);
  if (!rows[0]) throw new AppError("not_found", `integration ${id} not found`);
  return rows[0];
}

export async function listIntegrations(db: Database, organizationId: string): Promise<IntegrationRecord[]> {
  await getOrganization(db, organizationId);
  const { rows } = await db.sql.query<IntegrationRecord>(
    `SELECT ${COLUMNS} FROM integrations i WHERE i.organization_id = $1 ORDER BY i.created_at`,
    [organizationId],
  );
  return rows;
}

const RESOLVE_SQL = `
SELECT i.id, i.organization_id, i.slug, i.status, i.access_version FROM integrations i
WHERE i.organization_id = $1 AND i.slug = $2
UNION ALL
SELECT i.id, i.organization_id, i.slug, i.status, i.access_version FROM integration_aliases a JOIN integrations i ON i.id = a.integration_id
WHERE a.organization_id = $1 AND a.slug = $2 AND $3 = ANY (a.granted_key_ids)
LIMIT 1`;

/**
 * The integration named by a partner request (spec section 5 item 4): it must exist in the
 * key's organization, under its canonical slug or an alias granted to this key, and be
 * active. Anything else is the same 403, so a request cannot probe other partners' slugs.
 * `accessVersion` is read with the status, for a launch to snapshot (a disabling committed after
 * this read moves it past the snapshot).
 */
export async function resolveIntegration(
  db: Database,
  key: { id: string; organizationId: string },
  slug: string,
): Promise<ResolvedIntegration & { accessVersion: number }> {
  assertIntegrationSlug(slug);
  const { rows } = await db.sql.query<{
    id: string;
    organization_id: string;
    slug: string;
    status: string;
    access_version: number;
  }>(RESOLVE_SQL, [key.organizationId, slug, key.id]);
  const row = rows[0];
  if (!row || row.status !== "active")
    throw new AppError("forbidden", `integration ${slug} is not available to this key`);
  return { id: row.id, organizationId: row.organization_id, slug: row.slug, accessVersion: row.access_version };
}

/** Canonical slugs and aliases share one namespace per organization; `field` names the input refused. */
async function assertSlugsFree(db: Database, organizationId: string, slugs: string[], field: string): Promise<void> {
  if (slugs.length === 0) return;
  const { rows } = await db.sql.query<{ slug: string }>(
    `SELECT slug FROM integrations WHERE organization_id = $1 AND slug = ANY($2::text[])
     UNION ALL SELECT slug FROM integration_aliases WHERE organization_id = $1 AND slug = ANY($2::text[])`,
    [organizationId, slugs],
  );
  const taken = rows.map((row) => row.slug);
  if (taken.length)
    throw new AppError(
      "invalid_request",
      `the name ${taken.join(", ")} is already used by an integration or alias of this organization`,
      { field },
    );
}

/** An integration as IntegrationRecord, its aliases by slug (select FROM integrations i). */
const COLUMNS = `i.id, i.organization_id AS "organizationId", i.slug, i.status, i.chat_answers_per_user_per_minute AS "chatAnswersPerUserPerMinute",
  COALESCE((SELECT json_agg(json_build_object('slug', a.slug, 'grantedKeyIds', a.granted_key_ids) ORDER BY a.slug) FROM integration_aliases a WHERE a.integration_id = i.id), '[]') AS aliases`;

async function addAlias(tx: Database, integrationId: string, organizationId: string, slug: string): Promise<void> {
  await tx.sql.query(
    "INSERT INTO integration_aliases (id, integration_id, organization_id, slug) VALUES ($1, $2, $3, $4)",
    [newId("ali"), integrationId, organizationId, slug],
  );
}
