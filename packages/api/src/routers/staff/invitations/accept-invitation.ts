import { acceptStaffInvite } from "@mga/core/staff";

import { publicProcedure } from "../../../trpc";
import { acceptInvitationInput, acceptInvitationOutput } from "./invitations.types";

/** Creates the account; the console then signs in with it. */
export const acceptInvitation = publicProcedure
  .input(acceptInvitationInput)
  .output(acceptInvitationOutput)
  .mutation(async ({ ctx, input }) => {
    const account = await acceptStaffInvite(ctx.db, { ...input, address: ctx.clientAddress });
    return { email: account.email, role: account.role };
  });
