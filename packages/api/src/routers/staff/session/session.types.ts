import { z } from "zod";

import { staffRoleSchema } from "../staff.types";

export const signInInput = z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(1000) });

/** Who is signed in, and the CSRF token the console sends back on mutations (sign-in and me alike). */
export const staffSessionSchema = z.strictObject({ email: z.string(), role: staffRoleSchema, csrf_token: z.string() });

export const signOutOutput = z.strictObject({ signed_out: z.literal(true) });
