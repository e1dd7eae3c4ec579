import { findDeletionBlockers, getOrganization } from "@mga/core/orgs";
import { AGENCY_SOURCE_TYPES } from "@mga/core/sources";
import { getTenantConfig, tenantConfiguredAt } from "@mga/core/tenants";

import { staffProcedure } from "../../../trpc";
import { getOrganizationOutput, organizationIdInput } from "./organizations.types";

export const getStaffOrganization = staffProcedure
  .input(organizationIdInput)
  .output(getOrganizationOutput)
  .query(async ({ ctx, input }) => {
    const org = await getOrganization(ctx.db, input.id);
    const [tenant, configuredAt, blockers] = await Promise.all([
      getTenantConfig(ctx.db, org.id),
      tenantConfiguredAt(ctx.db, org.id),
      findDeletionBlockers(ctx.db, [org.id]),
    ]);
    const blocking = blockers.get(org.id) ?? { activeKeys: 0, activeIntegrations: 0, partnerUsers: 0 };
    return {
      id: org.id,
      name: org.name,
      created_at: org.createdAt.toISOString(),
      tenant,
      tenant_configured_at: configuredAt?.toISOString() ?? null,
      suggested_agency_sources: [...AGENCY_SOURCE_TYPES],
      deletion_blockers: {
        active_keys: blocking.activeKeys,
        active_integrations: blocking.activeIntegrations,
        partner_users: blocking.partnerUsers,
      },
    };
  });
