import { listPendingInvites, listStaff } from "@mga/core/staff";

import { staffProcedure } from "../../../trpc";
import { listMembersOutput } from "./members.types";
import { inviteToWire, memberToWire } from "./to-wire";

export const listMembers = staffProcedure.output(listMembersOutput).query(async ({ ctx }) => {
  const [members, invites] = await Promise.all([listStaff(ctx.db), listPendingInvites(ctx.db)]);
  return { members: members.map(memberToWire), invites: invites.map(inviteToWire) };
});
