import { signInStaff, signOutStaff } from "@mga/core";
import { z } from "zod";
import { STAFF_COOKIE } from "../../context";
import { publicProcedure, staffProcedure } from "../../trpc";

/**
 * Sign-in sets the httpOnly, SameSite=Strict session cookie and returns the CSRF token the
 * console sends back on mutations (X-CSRF-Token).
 */
const cookie = (token: string, maxAgeSeconds: number) =>
  `${STAFF_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}`;

export const signIn = publicProcedure
  .input(z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(1000) }))
  .mutation(async ({ ctx, input }) => {
    const session = await signInStaff(ctx.db, { ...input, address: ctx.clientAddress });
    ctx.response.headers["Set-Cookie"] = cookie(session.sessionToken, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
    return { email: session.staff.email, role: session.staff.role, csrf_token: session.staff.csrfToken };
  });

export const signOut = staffProcedure.mutation(async ({ ctx }) => {
  await signOutStaff(ctx.db, ctx.staffSessionToken as string);
  ctx.response.headers["Set-Cookie"] = cookie("", 0);
  return { signed_out: true };
});

export const me = staffProcedure.query(({ ctx }) => ({ email: ctx.staff.email, role: ctx.staff.role, csrf_token: ctx.staff.csrfToken }));
