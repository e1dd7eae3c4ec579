import { renameOrganization } from "@mga/core/orgs";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { organizationNameSchema, renameOrganizationInput } from "./organizations.types";

export const renameStaffOrganization = adminProcedure
  .input(renameOrganizationInput)
  .output(organizationNameSchema)
  .mutation(async ({ ctx, input }) => {
    const org = await auditedStaffChange(
      ctx,
      (tx) => renameOrganization(tx, input.id, input.name),
      (renamed) => ({
        action: "organization.rename",
        target: renamed.id,
        details: { from: renamed.previousName, to: renamed.name },
      }),
    );
    return { id: org.id, name: org.name };
  });
