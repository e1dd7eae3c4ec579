import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { parseOrThrow } from "../errors/zod-issues";
import { publishKeyChange } from "../keys/key-changes";
import { getOrganization } from "../orgs/organizations";
import { tenantConfigSchema, type TenantConfig } from "./tenant-config.schema";

export interface FieldIssue {
  /** The top-level field of the configuration ("baseSources"), or "" for the whole object. */
  field: string;
  /** The issue with its position inside the field when nested ("tenantSources.1.label: Required"). */
  message: string;
}

/**
 * Checks a configuration without storing it, as issues per top-level field, so a form can
 * show each problem beside its input (the admin console) instead of one 400 message.
 */
export function validateTenantConfig(
  config: unknown,
): { ok: true; config: TenantConfig } | { ok: false; issues: FieldIssue[] } {
  const result = tenantConfigSchema.safeParse(config);
  if (result.success) return { ok: true, config: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => {
      const unknownKeys = issue.code === "unrecognized_keys" ? issue.keys : [];
      const field = issue.path.length ? String(issue.path[0]) : (unknownKeys[0] ?? "");
      const inner = issue.path.slice(1).map(String).join(".");
      return {
        field,
        message: unknownKeys.length
          ? `unknown field: ${unknownKeys.join(", ")}`
          : inner
            ? `${inner}: ${issue.message}`
            : issue.message,
      };
    }),
  };
}

/** Validates and stores an organization's tenant configuration (replacing the previous one). */
export async function configureTenant(
  db: Database,
  input: { organizationId: string; config: unknown },
): Promise<TenantConfig> {
  await getOrganization(db, input.organizationId);
  const config = parseOrThrow(tenantConfigSchema, input.config, "tenant");
  await withTransaction(db, async (tx) => {
    await tx.sql.query(
      `INSERT INTO tenant_configurations (organization_id, config, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (organization_id) DO UPDATE SET config = EXCLUDED.config, updated_at = now()`,
      [input.organizationId, JSON.stringify(config)],
    );
    // Cached keys carry their tenant configuration.
    await publishKeyChange(tx, { kind: "organization", id: input.organizationId });
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
  const { rows } = await db.sql.query<{ config: unknown }>(
    "SELECT config FROM tenant_configurations WHERE organization_id = $1",
    [organizationId],
  );
  return resolveTenantConfig(rows[0]?.config, org.name);
}
