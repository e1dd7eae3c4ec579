import {
  AGENCY_SOURCE_TYPES,
  configureTenant,
  createOrganization,
  deleteOrganization,
  getOrganization,
  getTenantConfig,
  listOrganizations,
  renameOrganization,
  validateTenantConfig,
} from "@mga/core";
import { z } from "zod";
import { adminProcedure, router, staffProcedure } from "../../trpc";
import { auditStaffAction } from "./audit-action";
import { staffId } from "./staff.types";

const orgName = z.string().trim().min(1).max(200);

/** Organizations and their tenant configuration (spec 2.3/2.4). */
export const staffOrganizationsRouter = router({
  list: staffProcedure.query(async ({ ctx }) => {
    const orgs = await listOrganizations(ctx.db);
    const { rows } = await ctx.db.sql.query<{ organization_id: string; integrations: number; keys: number }>(
      `SELECT o.id AS organization_id,
              (SELECT count(*)::int FROM integrations i WHERE i.organization_id = o.id) AS integrations,
              (SELECT count(*)::int FROM api_keys k WHERE k.organization_id = o.id AND k.status = 'active') AS keys
       FROM organizations o`,
    );
    const counts = new Map(rows.map((row) => [row.organization_id, row]));
    return orgs.map((org) => ({
      id: org.id,
      name: org.name,
      created_at: org.createdAt.toISOString(),
      integrations: counts.get(org.id)?.integrations ?? 0,
      active_keys: counts.get(org.id)?.keys ?? 0,
    }));
  }),

  get: staffProcedure.input(z.strictObject({ id: staffId })).query(async ({ ctx, input }) => {
    const org = await getOrganization(ctx.db, input.id);
    const { rows: configured } = await ctx.db.sql.query<{ updated_at: Date }>("SELECT updated_at FROM tenant_configurations WHERE organization_id = $1", [org.id]);
    return {
      id: org.id,
      name: org.name,
      created_at: org.createdAt.toISOString(),
      tenant: await getTenantConfig(ctx.db, org.id),
      tenant_configured_at: configured[0]?.updated_at.toISOString() ?? null,
      suggested_agency_sources: [...AGENCY_SOURCE_TYPES],
    };
  }),

  create: adminProcedure.input(z.strictObject({ name: orgName })).mutation(async ({ ctx, input }) => {
    const org = await createOrganization(ctx.db, { name: input.name });
    await auditStaffAction(ctx, "organization.create", org.id, { name: org.name });
    return { id: org.id, name: org.name };
  }),

  rename: adminProcedure.input(z.strictObject({ id: staffId, name: orgName })).mutation(async ({ ctx, input }) => {
    const org = await renameOrganization(ctx.db, input.id, input.name);
    await auditStaffAction(ctx, "organization.rename", org.id, { from: org.previousName, to: org.name });
    return { id: org.id, name: org.name };
  }),

  /** Only an empty organization (no integrations, no keys); otherwise a 409 saying what it still holds. */
  delete: adminProcedure.input(z.strictObject({ id: staffId })).mutation(async ({ ctx, input }) => {
    const org = await deleteOrganization(ctx.db, input.id);
    await auditStaffAction(ctx, "organization.delete", org.id, { name: org.name });
    return { id: org.id, deleted: true };
  }),

  /**
   * Replaces the tenant configuration. Invalid input is not an error here but a result with
   * one issue per field, so the form shows each beside its input; nothing is stored then.
   */
  configureTenant: adminProcedure.input(z.strictObject({ id: staffId, config: z.unknown() })).mutation(async ({ ctx, input }) => {
    await getOrganization(ctx.db, input.id);
    const checked = validateTenantConfig(input.config);
    if (!checked.ok) return { saved: false as const, issues: checked.issues };
    const config = await configureTenant(ctx.db, { organizationId: input.id, config: checked.config });
    await auditStaffAction(ctx, "tenant.configure", input.id, { enabled_sources: config.enabledSources, base_sources: config.baseSources });
    return { saved: true as const, config };
  }),
});
