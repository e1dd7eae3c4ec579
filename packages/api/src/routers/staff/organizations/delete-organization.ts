import { deleteOrganization } from "@mga/core/orgs";

import { adminProcedure } from "../../../trpc";
import { deleteOrganizationOutput, organizationIdInput } from "./organizations.types";

/**
 * Only an organization with no active keys, active integrations or partner users; its revoked
 * keys and disabled integrations go with it (core audits the deletion in its transaction).
 * Otherwise a 409 saying what blocks it.
 */
export const deleteStaffOrganization = adminProcedure
  .input(organizationIdInput)
  .output(deleteOrganizationOutput)
  .mutation(async ({ ctx, input }) => {
    const org = await deleteOrganization(ctx.db, input.id, ctx.staff.email);
    return { id: org.id, deleted: true as const };
  });
