import { renameOrganization } from "@mga/core/orgs";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { organizationNameSchema, renameOrganizationInput } from "./organizations.types";

export const renameStaffOrganization = adminProcedure
  .input(renameOrganizationInput)
  .output(organizationNameSchema)
  .mutation(async ({ ctx, input }) => {
    const org = await renameOrganization(ctx.db, input.id, input.name);
    await auditStaffAction(ctx, "organization.rename", org.id, { from: org.previousName, to: org.name });
    return { id: org.id, name: org.name };
  });
