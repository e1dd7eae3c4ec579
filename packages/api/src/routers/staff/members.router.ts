import { inviteStaff, listPendingInvites, listStaff, revokeStaffInvite, setStaffRole, setStaffStatus, STAFF_ROLES, STAFF_STATUSES, type StaffAccountView, type StaffInvite } from "@mga/core";
import { z } from "zod";
import { adminProcedure, router, staffProcedure } from "../../trpc";
import { staffId } from "./staff.types";

/** Staff accounts and invitations. Everyone reads; admins invite and change colleagues. */
const role = z.enum(STAFF_ROLES);

const memberView = (member: StaffAccountView) => ({
  id: member.id,
  email: member.email,
  role: member.role,
  status: member.status,
  locked_until: member.lockedUntil?.toISOString() ?? null,
  last_sign_in_at: member.lastSignInAt?.toISOString() ?? null,
  created_at: member.createdAt.toISOString(),
});

const inviteView = (invite: StaffInvite) => ({
  id: invite.id,
  email: invite.email,
  role: invite.role,
  invited_by: invite.invitedBy,
  created_at: invite.createdAt.toISOString(),
  expires_at: invite.expiresAt.toISOString(),
});

export const staffMembersRouter = router({
  list: staffProcedure.query(async ({ ctx }) => {
    const [members, invites] = await Promise.all([listStaff(ctx.db), listPendingInvites(ctx.db)]);
    return { members: members.map(memberView), invites: invites.map(inviteView) };
  }),

  /** The token is in this response only (the console turns it into the link it shows once). */
  invite: adminProcedure.input(z.strictObject({ email: z.string().trim().min(1).max(254), role })).mutation(async ({ ctx, input }) => {
    const { invite, token } = await inviteStaff(ctx.db, { email: input.email, role: input.role, actor: ctx.staff.email });
    return { invite: inviteView(invite), token };
  }),

  revokeInvite: adminProcedure.input(z.strictObject({ id: staffId })).mutation(async ({ ctx, input }) => {
    await revokeStaffInvite(ctx.db, { id: input.id, actor: ctx.staff.email });
    return { revoked: true };
  }),

  setRole: adminProcedure.input(z.strictObject({ id: staffId, role })).mutation(async ({ ctx, input }) =>
    memberView(await setStaffRole(ctx.db, { id: input.id, role: input.role, actor: ctx.staff })),
  ),

  /** Disabling ends the colleague's sessions at once; enabling also lifts a lockout. */
  setStatus: adminProcedure.input(z.strictObject({ id: staffId, status: z.enum(STAFF_STATUSES) })).mutation(async ({ ctx, input }) =>
    memberView(await setStaffStatus(ctx.db, { id: input.id, status: input.status, actor: ctx.staff })),
  ),
});
