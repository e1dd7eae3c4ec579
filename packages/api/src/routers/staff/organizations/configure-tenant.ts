import { getOrganization } from "@mga/core/orgs";
import { configureTenant, validateTenantConfig } from "@mga/core/tenants";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { configureTenantInput, configureTenantOutput } from "./organizations.types";

/** Replaces the tenant configuration; nothing is stored when it has issues. */
export const configureStaffTenant = adminProcedure
  .input(configureTenantInput)
  .output(configureTenantOutput)
  .mutation(async ({ ctx, input }) => {
    await getOrganization(ctx.db, input.id);
    const checked = validateTenantConfig(input.config);
    if (!checked.ok) return { saved: false as const, issues: checked.issues };
    const config = await auditedStaffChange(
      ctx,
      (tx) => configureTenant(tx, { organizationId: input.id, config: checked.config }),
      (saved) => ({
        action: "tenant.configure",
        target: input.id,
        details: { enabled_sources: saved.enabledSources, base_sources: saved.baseSources },
      }),
    );
    return { saved: true as const, config };
  });
