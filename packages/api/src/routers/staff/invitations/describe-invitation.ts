import { describeStaffInvite } from "@mga/core/staff";

import { publicProcedure } from "../../../trpc";
import { describeInvitationInput, describeInvitationOutput } from "./invitations.types";

export const describeInvitation = publicProcedure
  .input(describeInvitationInput)
  .output(describeInvitationOutput)
  .query(async ({ ctx, input }) => {
    const invite = await describeStaffInvite(ctx.db, input.token);
    return { email: invite.email, role: invite.role, expires_at: invite.expiresAt.toISOString() };
  });
