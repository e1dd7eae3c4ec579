import { setStaffRole } from "@mga/core/staff";

import { adminProcedure } from "../../../trpc";
import { memberSchema, setMemberRoleInput } from "./members.types";
import { memberToWire } from "./to-wire";

export const setMemberRole = adminProcedure
  .input(setMemberRoleInput)
  .output(memberSchema)
  .mutation(async ({ ctx, input }) =>
    memberToWire(await setStaffRole(ctx.db, { id: input.id, role: input.role, actor: ctx.staff })),
  );
