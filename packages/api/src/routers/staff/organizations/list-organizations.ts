import { countOrganizationHoldings, listOrganizations } from "@mga/core/orgs";

import { staffProcedure } from "../../../trpc";
import { listOrganizationsOutput } from "./organizations.types";

export const listStaffOrganizations = staffProcedure.output(listOrganizationsOutput).query(async ({ ctx }) => {
  const [orgs, counts] = await Promise.all([listOrganizations(ctx.db), countOrganizationHoldings(ctx.db)]);
  return orgs.map((org) => ({
    id: org.id,
    name: org.name,
    created_at: org.createdAt.toISOString(),
    integrations: counts.get(org.id)?.integrations ?? 0,
    active_keys: counts.get(org.id)?.activeKeys ?? 0,
  }));
});
