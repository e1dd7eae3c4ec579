import { router } from "../../../trpc";
import { inviteMember } from "./invite-member";
import { listMembers } from "./list-members";
import { revokeInvite } from "./revoke-invite";
import { setMemberRole } from "./set-member-role";
import { setMemberStatus } from "./set-member-status";

/** Staff accounts and invitations. Everyone reads; admins invite and change colleagues. */
export const staffMembersRouter = router({
  list: listMembers,
  invite: inviteMember,
  revokeInvite,
  setRole: setMemberRole,
  setStatus: setMemberStatus,
});
