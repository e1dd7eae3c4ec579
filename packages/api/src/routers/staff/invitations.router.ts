import { acceptStaffInvite, describeStaffInvite } from "@mga/core";
import { z } from "zod";
import { publicProcedure, router } from "../../trpc";

/**
 * The page an invitation link opens: public (the invitee has no session yet), authorized by
 * the link's token alone. Accepting creates the account; the console then signs in with it.
 */
const token = z.string().min(16).max(200);

export const staffInvitationsRouter = router({
  describe: publicProcedure.input(z.strictObject({ token })).query(async ({ ctx, input }) => {
    const invite = await describeStaffInvite(ctx.db, input.token);
    return { email: invite.email, role: invite.role, expires_at: invite.expiresAt.toISOString() };
  }),

  accept: publicProcedure.input(z.strictObject({ token, password: z.string().min(1).max(1000) })).mutation(async ({ ctx, input }) => {
    const account = await acceptStaffInvite(ctx.db, { ...input, address: ctx.clientAddress });
    return { email: account.email, role: account.role };
  }),
});
