import type { StaffAccountView, StaffInvite } from "@mga/core/staff";

export const memberToWire = (member: StaffAccountView) => ({
  id: member.id,
  email: member.email,
  role: member.role,
  status: member.status,
  locked_until: member.lockedUntil?.toISOString() ?? null,
  last_sign_in_at: member.lastSignInAt?.toISOString() ?? null,
  created_at: member.createdAt.toISOString(),
});

export const inviteToWire = (invite: StaffInvite) => ({
  id: invite.id,
  email: invite.email,
  role: invite.role,
  invited_by: invite.invitedBy,
  created_at: invite.createdAt.toISOString(),
  expires_at: invite.expiresAt.toISOString(),
});
