import type { Database } from "../db/database";
import { parseOrThrow } from "../errors/zod-issues";
import { getOrganization } from "../orgs/organizations";
import { type TenantConfig, tenantConfigSchema } from "./tenant-config.schema";

/** Validates and stores an organization's tenant configuration (replacing the previous one). */
export async function configureTenant(db: Database, input: { organizationId: string; config: unknown }): Promise<TenantConfig> {
  await getOrganization(db, input.organizationId);
  const config = parseOrThrow(tenantConfigSchema, input.config, "tenant");
  await db.prisma.tenantConfiguration.upsert({
    where: { organizationId: input.organizationId },
    create: { organizationId: input.organizationId, config },
    update: { config },
  });
  return config;
}

/**
 * The configuration in force for an organization. An organization that has not been
 * configured yet selects nothing: its client name is the organization's name.
 */
export function resolveTenantConfig(stored: unknown, organizationName: string): TenantConfig {
  // Validated when written (configureTenant); not parsed again on every request.
  if (stored && typeof stored === "object") return stored as TenantConfig;
  return { clientName: organizationName, enabledSources: [], baseSources: [] };
}

export async function getTenantConfig(db: Database, organizationId: string): Promise<TenantConfig> {
  const org = await getOrganization(db, organizationId);
  const stored = await db.prisma.tenantConfiguration.findUnique({ where: { organizationId } });
  return resolveTenantConfig(stored?.config, org.name);
}
