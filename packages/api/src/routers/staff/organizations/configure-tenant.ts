import { getOrganization } from "@mga/core/orgs";
import { configureTenant, validateTenantConfig } from "@mga/core/tenants";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { configureTenantInput, configureTenantOutput } from "./organizations.types";

/** Replaces the tenant configuration; nothing is stored when it has issues. */
export const configureStaffTenant = adminProcedure
  .input(configureTenantInput)
  .output(configureTenantOutput)
  .mutation(async ({ ctx, input }) => {
    await getOrganization(ctx.db, input.id);
    const checked = validateTenantConfig(input.config);
    if (!checked.ok) return { saved: false as const, issues: checked.issues };
    const config = await configureTenant(ctx.db, { organizationId: input.id, config: checked.config });
    await auditStaffAction(ctx, "tenant.configure", input.id, { enabled_sources: config.enabledSources, base_sources: config.baseSources });
    return { saved: true as const, config };
  });
