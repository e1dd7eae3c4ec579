import { countPartnerUsers } from "@mga/core/partners/users";

import { staffProcedure } from "../../../trpc";
import { integrationForStaff } from "../partner-directory";
import { integrationIdInput, userCountsSchema } from "./partner-users.types";

/** The list's counts alone: they do not depend on a filter, so a refused filter does not hide them. */
export const countStaffPartnerUsers = staffProcedure
  .input(integrationIdInput)
  .output(userCountsSchema)
  .query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    return countPartnerUsers(ctx.db, integration.id);
  });
