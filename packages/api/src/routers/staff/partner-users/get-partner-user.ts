import { listUserOperations } from "@mga/core/partners/operations";
import { getPartnerUser, getPartnerUserContact } from "@mga/core/partners/users";

import { staffProcedure } from "../../../trpc";
import { operationToWire } from "../../partners/operations/to-wire";
import { userToWire } from "../../partners/users/to-wire";
import { integrationForStaff } from "../partner-directory";
import { getPartnerUserOutput, userRefInput } from "./partner-users.types";

export const getStaffPartnerUser = staffProcedure
  .input(userRefInput)
  .output(getPartnerUserOutput)
  .query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const user = await getPartnerUser(ctx.db, integration, input.external_user_id);
    const [contact, operations] = await Promise.all([
      getPartnerUserContact(ctx.db, user.id),
      listUserOperations(ctx.db, integration, input.external_user_id),
    ]);
    return { user: userToWire(user), contact, operations: operations.map(operationToWire) };
  });
