import { signInStaff } from "@mga/core/staff";

import { publicProcedure } from "../../../trpc";
import { sessionCookie } from "./session-cookie";
import { signInInput, staffSessionSchema } from "./session.types";

/** Sets the session cookie and returns the CSRF token the console sends back on mutations (X-CSRF-Token). */
export const signIn = publicProcedure
  .input(signInInput)
  .output(staffSessionSchema)
  .mutation(async ({ ctx, input }) => {
    const session = await signInStaff(ctx.db, { ...input, address: ctx.clientAddress });
    ctx.response.headers["Set-Cookie"] = sessionCookie(
      session.sessionToken,
      Math.floor((session.expiresAt.getTime() - Date.now()) / 1000),
    );
    return { email: session.staff.email, role: session.staff.role, csrf_token: session.staff.csrfToken };
  });
