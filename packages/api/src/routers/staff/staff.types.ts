import { z } from "zod";

import { STAFF_ROLES } from "@mga/core/staff";

/** Ids the console passes back (org_…, int_…, key_…); checked for shape, looked up by core. */
export const staffId = z.string().trim().min(1).max(100);

/** Page sizes of the console's tables. */
export const staffLimit = (fallback: number) => z.int().min(1).max(200).default(fallback);

export const staffCursor = z.string().min(1).max(500).optional();

export const externalId = z.string().trim().min(1).max(255);

/** A staff member's role, in requests and results alike (core's StaffRole). */
export const staffRoleSchema = z.enum(STAFF_ROLES);

/** Counts and totals of the console's tables. */
export const countSchema = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
