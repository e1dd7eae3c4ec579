import { provisionPartnerUser } from "@mga/core/partners/users";

import { adminProcedure } from "../../../trpc";
import { userToWire } from "../../partners/users/to-wire";
import { integrationForStaff, operationDeps } from "../partner-directory";
import { addPartnerUserInput, addPartnerUserOutput } from "./partner-users.types";

/**
 * A user added by staff: PUT user's own core function (provisioning and identity matching
 * alike, so an existing user with the same email is matched, another's email refused), audited.
 */
export const addPartnerUser = adminProcedure
  .input(addPartnerUserInput)
  .output(addPartnerUserOutput)
  .mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const { user, outcome } = await provisionPartnerUser(
      operationDeps(ctx),
      integration,
      input.external_user_id,
      { email: input.email, name: input.name, teamExternalId: input.team_external_id },
      // Recorded in core with the write that creates or matches the user (provisioning goes on after it).
      { audit: { actor: ctx.staff.email } },
    );
    return { user: userToWire(user), outcome };
  });
