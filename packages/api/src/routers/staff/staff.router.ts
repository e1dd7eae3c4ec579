import { createOrganization, listOrganizations, recordAudit, signInStaff, signOutStaff } from "@mga/core";
import { z } from "zod";
import { STAFF_COOKIE } from "../../context";
import { adminProcedure, publicProcedure, router, staffProcedure } from "../../trpc";

/**
 * The admin console's procedures. Sign-in sets the httpOnly, SameSite=Strict session cookie
 * and returns the CSRF token the console sends back on mutations. Every staff mutation is
 * written to the audit log.
 */
const cookie = (token: string, maxAgeSeconds: number) =>
  `${STAFF_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}`;

export const staffRouter = router({
  signIn: publicProcedure
    .input(z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(1000) }))
    .mutation(async ({ ctx, input }) => {
      const session = await signInStaff(ctx.db, input);
      ctx.response.headers["Set-Cookie"] = cookie(session.sessionToken, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
      await recordAudit(ctx.db, { actor: session.staff.email, action: "staff.sign_in", target: session.staff.id });
      return { email: session.staff.email, role: session.staff.role, csrf_token: session.staff.csrfToken };
    }),
  signOut: staffProcedure.mutation(async ({ ctx }) => {
    await signOutStaff(ctx.db, ctx.staffSessionToken as string);
    ctx.response.headers["Set-Cookie"] = cookie("", 0);
    return { signed_out: true };
  }),
  me: staffProcedure.query(({ ctx }) => ({ email: ctx.staff.email, role: ctx.staff.role, csrf_token: ctx.staff.csrfToken })),
  listOrganizations: staffProcedure.query(async ({ ctx }) =>
    (await listOrganizations(ctx.db)).map((org) => ({ id: org.id, name: org.name, created_at: org.createdAt.toISOString() })),
  ),
  createOrganization: adminProcedure.input(z.strictObject({ name: z.string().trim().min(1).max(200) })).mutation(async ({ ctx, input }) => {
    const org = await createOrganization(ctx.db, { name: input.name });
    await recordAudit(ctx.db, { actor: ctx.staff.email, action: "organization.create", target: org.id, details: { name: org.name } });
    return { id: org.id, name: org.name };
  }),
  auditLog: staffProcedure.input(z.strictObject({ limit: z.int().min(1).max(200).default(50) }).optional()).query(async ({ ctx, input }) => {
    const rows = await ctx.db.prisma.auditLog.findMany({ orderBy: { createdAt: "desc" }, take: input?.limit ?? 50 });
    return rows.map((row) => ({ id: row.id, actor: row.actor, action: row.action, target: row.target, details: row.details, created_at: row.createdAt.toISOString() }));
  }),
});
