import { revokeStaffInvite } from "@mga/core/staff";

import { adminProcedure } from "../../../trpc";
import { memberIdInput, revokeInviteOutput } from "./members.types";

export const revokeInvite = adminProcedure
  .input(memberIdInput)
  .output(revokeInviteOutput)
  .mutation(async ({ ctx, input }) => {
    await revokeStaffInvite(ctx.db, { id: input.id, actor: ctx.staff.email });
    return { revoked: true as const };
  });
