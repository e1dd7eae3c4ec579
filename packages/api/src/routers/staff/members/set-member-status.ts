import { setStaffStatus } from "@mga/core/staff";

import { adminProcedure } from "../../../trpc";
import { memberSchema, setMemberStatusInput } from "./members.types";
import { memberToWire } from "./to-wire";

/** Disabling ends the colleague's sessions at once; enabling also lifts a lockout. */
export const setMemberStatus = adminProcedure
  .input(setMemberStatusInput)
  .output(memberSchema)
  .mutation(async ({ ctx, input }) =>
    memberToWire(await setStaffStatus(ctx.db, { id: input.id, status: input.status, actor: ctx.staff })),
  );
