import { staffProcedure } from "../../../trpc";
import { staffSessionSchema } from "./session.types";

export const me = staffProcedure
  .output(staffSessionSchema)
  .query(({ ctx }) => ({ email: ctx.staff.email, role: ctx.staff.role, csrf_token: ctx.staff.csrfToken }));
