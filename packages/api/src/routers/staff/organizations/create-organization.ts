import { createOrganization } from "@mga/core/orgs";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { createOrganizationInput, organizationNameSchema } from "./organizations.types";

export const createStaffOrganization = adminProcedure
  .input(createOrganizationInput)
  .output(organizationNameSchema)
  .mutation(async ({ ctx, input }) => {
    const org = await createOrganization(ctx.db, { name: input.name });
    await auditStaffAction(ctx, "organization.create", org.id, { name: org.name });
    return { id: org.id, name: org.name };
  });
