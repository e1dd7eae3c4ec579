import { inviteStaff } from "@mga/core/staff";

import { adminProcedure } from "../../../trpc";
import { inviteMemberInput, inviteMemberOutput } from "./members.types";
import { inviteToWire } from "./to-wire";

/** The token is in this response only (the console turns it into the link it shows once). */
export const inviteMember = adminProcedure
  .input(inviteMemberInput)
  .output(inviteMemberOutput)
  .mutation(async ({ ctx, input }) => {
    const { invite, token } = await inviteStaff(ctx.db, {
      email: input.email,
      role: input.role,
      actor: ctx.staff.email,
    });
    return { invite: inviteToWire(invite), token };
  });
