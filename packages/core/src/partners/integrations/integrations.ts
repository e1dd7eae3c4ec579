import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import { newId } from "../../ids/new-id";
import { getOrganization } from "../../orgs/organizations";
import type { IntegrationStatus } from "./integration-status";
import { assertIntegrationSlug } from "./slug";

export interface IntegrationRecord {
  id: string;
  organizationId: string;
  slug: string;
  status: IntegrationStatus;
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
  input: { organizationId: string; slug: string; aliases?: string[]; status?: IntegrationStatus },
): Promise<IntegrationRecord> {
  await getOrganization(db, input.organizationId);
  const slug = assertIntegrationSlug(input.slug, "slug");
  const aliases = [...new Set((input.aliases ?? []).map((alias) => assertIntegrationSlug(alias, "alias")))];
  if (aliases.includes(slug)) throw new AppError("invalid_request", "alias: must differ from the canonical slug");
  await assertSlugsFree(db, input.organizationId, [slug], "slug");
  await assertSlugsFree(db, input.organizationId, aliases, "aliases");
  const id = newId("int");
  await db.prisma.integration.create({
    data: {
      id,
      organizationId: input.organizationId,
      slug,
      status: input.status ?? "active",
      aliases: { create: aliases.map((alias) => ({ id: newId("ali"), organizationId: input.organizationId, slug: alias })) },
    },
  });
  return getIntegration(db, input.organizationId, slug);
}

export async function updateIntegration(
  db: Database,
  input: { organizationId: string; slug: string; status?: IntegrationStatus; addAliases?: string[]; removeAliases?: string[] },
): Promise<IntegrationRecord> {
  const current = await getIntegration(db, input.organizationId, input.slug);
  const add = [...new Set((input.addAliases ?? []).map((alias) => assertIntegrationSlug(alias, "alias")))];
  // Adding an alias the integration already has is refused, not reported as done.
  const existing = add.filter((alias) => current.aliases.some((known) => known.slug === alias));
  if (existing.length) throw new AppError("invalid_request", `the name ${existing.join(", ")} is already an alias of ${current.slug}`, { field: "alias" });
  await assertSlugsFree(db, input.organizationId, add, "alias");
  await db.prisma.$transaction([
    ...(input.status ? [db.prisma.integration.update({ where: { id: current.id }, data: { status: input.status } })] : []),
    ...add.map((alias) => db.prisma.integrationAlias.create({ data: { id: newId("ali"), integrationId: current.id, organizationId: input.organizationId, slug: alias } })),
    db.prisma.integrationAlias.deleteMany({ where: { integrationId: current.id, slug: { in: input.removeAliases ?? [] } } }),
  ]);
  return getIntegration(db, input.organizationId, input.slug);
}

/** Grants (or revokes) one key the use of an alias: without a grant the alias resolves for no one. */
export async function setAliasGrant(db: Database, input: { organizationId: string; alias: string; apiKeyId: string; granted: boolean }): Promise<IntegrationRecord> {
  const alias = await db.prisma.integrationAlias.findUnique({
    where: { organizationId_slug: { organizationId: input.organizationId, slug: input.alias } },
    include: { integration: true },
  });
  if (!alias) throw new AppError("not_found", `alias ${input.alias} not found in this organization`);
  const key = await db.prisma.apiKey.findFirst({ where: { id: input.apiKeyId, organizationId: input.organizationId } });
  if (!key) throw new AppError("not_found", `key ${input.apiKeyId} not found in this organization`);
  if (input.granted && key.status !== "active") throw new AppError("invalid_request", `key ${key.id} is revoked`);
  // Changed in the database, not read-modified-written: two grants at once both stay.
  await db.pool.query(
    `UPDATE integration_aliases
     SET granted_key_ids = CASE WHEN $3::boolean THEN array_append(array_remove(granted_key_ids, $2), $2) ELSE array_remove(granted_key_ids, $2) END
     WHERE id = $1`,
    [alias.id, key.id, input.granted],
  );
  return getIntegration(db, input.organizationId, alias.integration.slug);
}

export async function getIntegration(db: Database, organizationId: string, slug: string): Promise<IntegrationRecord> {
  const row = await db.prisma.integration.findUnique({ where: { organizationId_slug: { organizationId, slug } }, include: { aliases: { orderBy: { slug: "asc" } } } });
  if (!row) throw new AppError("not_found", `integration ${slug} not found in this organization`);
  return toRecord(row);
}

/** By id, for staff (the console links integrations by id). */
export async function getIntegrationById(db: Database, id: string): Promise<IntegrationRecord> {
  const row = await db.prisma.integration.findUnique({ where: { id }, include: { aliases: { orderBy: { slug: "asc" } } } });
  if (!row) throw new AppError("not_found", `integration ${id} not found`);
  return toRecord(row);
}

export async function listIntegrations(db: Database, organizationId: string): Promise<IntegrationRecord[]> {
  await getOrganization(db, organizationId);
  const rows = await db.prisma.integration.findMany({ where: { organizationId }, include: { aliases: { orderBy: { slug: "asc" } } }, orderBy: { createdAt: "asc" } });
  return rows.map(toRecord);
}

const RESOLVE_SQL = `
SELECT i.id, i.organization_id, i.slug, i.status FROM integrations i
WHERE i.organization_id = $1 AND i.slug = $2
UNION ALL
SELECT i.id, i.organization_id, i.slug, i.status FROM integration_aliases a JOIN integrations i ON i.id = a.integration_id
WHERE a.organization_id = $1 AND a.slug = $2 AND $3 = ANY (a.granted_key_ids)
LIMIT 1`;

/**
 * The integration named by a partner request (spec section 5 item 4): it must exist in the
 * key's organization, under its canonical slug or an alias granted to this key, and be
 * active. Anything else is the same 403, so a request cannot probe other partners' slugs.
 */
export async function resolveIntegration(db: Database, key: { id: string; organizationId: string }, slug: string): Promise<ResolvedIntegration> {
  assertIntegrationSlug(slug);
  const { rows } = await db.pool.query<{ id: string; organization_id: string; slug: string; status: string }>(RESOLVE_SQL, [key.organizationId, slug, key.id]);
  const row = rows[0];
  if (!row || row.status !== "active") throw new AppError("forbidden", `integration ${slug} is not available to this key`);
  return { id: row.id, organizationId: row.organization_id, slug: row.slug };
}

/** Canonical slugs and aliases share one namespace per organization; `field` names the input refused. */
async function assertSlugsFree(db: Database, organizationId: string, slugs: string[], field: string): Promise<void> {
  if (slugs.length === 0) return;
  const [integrations, aliases] = await Promise.all([
    db.prisma.integration.findMany({ where: { organizationId, slug: { in: slugs } }, select: { slug: true } }),
    db.prisma.integrationAlias.findMany({ where: { organizationId, slug: { in: slugs } }, select: { slug: true } }),
  ]);
  const taken = [...integrations, ...aliases].map((row) => row.slug);
  if (taken.length) throw new AppError("invalid_request", `the name ${taken.join(", ")} is already used by an integration or alias of this organization`, { field });
}

function toRecord(row: { id: string; organizationId: string; slug: string; status: string; aliases: Array<{ slug: string; grantedKeyIds: string[] }> }): IntegrationRecord {
  return {
    id: row.id,
    organizationId: row.organizationId,
    slug: row.slug,
    status: row.status as IntegrationStatus,
    aliases: row.aliases.map((alias) => ({ slug: alias.slug, grantedKeyIds: alias.grantedKeyIds })),
  };
}
