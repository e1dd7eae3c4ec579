import { createOrganization } from "@mga/core/orgs";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { createOrganizationInput, organizationNameSchema } from "./organizations.types";

export const createStaffOrganization = adminProcedure
  .input(createOrganizationInput)
  .output(organizationNameSchema)
  .mutation(async ({ ctx, input }) => {
    const org = await auditedStaffChange(
      ctx,
      (tx) => createOrganization(tx, { name: input.name }),
      (created) => ({ action: "organization.create", target: created.id, details: { name: created.name } }),
    );
    return { id: org.id, name: org.name };
  });
