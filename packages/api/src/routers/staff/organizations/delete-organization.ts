import { deleteOrganization } from "@mga/core/orgs";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { deleteOrganizationOutput, organizationIdInput } from "./organizations.types";

/** Only an empty organization (no integrations, no keys); otherwise a 409 saying what it still holds. */
export const deleteStaffOrganization = adminProcedure
  .input(organizationIdInput)
  .output(deleteOrganizationOutput)
  .mutation(async ({ ctx, input }) => {
    const org = await deleteOrganization(ctx.db, input.id);
    await auditStaffAction(ctx, "organization.delete", org.id, { name: org.name });
    return { id: org.id, deleted: true as const };
  });
