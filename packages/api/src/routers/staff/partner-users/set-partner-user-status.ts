import { setPartnerUserStatus } from "@mga/core/partners/users";
import { adminProcedure } from "../../../trpc";
import { userToWire } from "../../partners/users/to-wire";
import { partnerUserSchema } from "../../partners/users/users.types";
import { auditStaffAction } from "../audit-action";
import { integrationForStaff, operationDeps } from "../partner-directory";
import { setPartnerUserStatusInput } from "./partner-users.types";

export const setStaffPartnerUserStatus = adminProcedure
  .input(setPartnerUserStatusInput)
  .output(partnerUserSchema)
  .mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const user = await setPartnerUserStatus(operationDeps(ctx), integration, input.external_user_id, input.status);
    await auditStaffAction(ctx, input.status === "disabled" ? "partner_user.disable" : "partner_user.reactivate", `${integration.slug}/${input.external_user_id}`, { integration_id: integration.id });
    return userToWire(user);
  });
