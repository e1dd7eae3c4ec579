import { setPartnerUserStatus } from "@mga/core/partners/users";

import { adminProcedure } from "../../../trpc";
import { userToWire } from "../../partners/users/to-wire";
import { partnerUserSchema } from "../../partners/users/users.types";
import { integrationForStaff, operationDeps } from "../partner-directory";
import { setPartnerUserStatusInput } from "./partner-users.types";

export const setStaffPartnerUserStatus = adminProcedure
  .input(setPartnerUserStatusInput)
  .output(partnerUserSchema)
  .mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    // Recorded in core in the status change's transaction (the site account is brought in line after it).
    const user = await setPartnerUserStatus(operationDeps(ctx), integration, input.external_user_id, input.status, {
      audit: { actor: ctx.staff.email },
    });
    return userToWire(user);
  });
