import { signOutStaff } from "@mga/core/staff";

import { staffProcedure } from "../../../trpc";
import { sessionCookie } from "./session-cookie";
import { signOutOutput } from "./session.types";

export const signOut = staffProcedure.output(signOutOutput).mutation(async ({ ctx }) => {
  await signOutStaff(ctx.db, ctx.staffSessionToken as string);
  ctx.response.headers["Set-Cookie"] = sessionCookie("", 0);
  return { signed_out: true as const };
});
