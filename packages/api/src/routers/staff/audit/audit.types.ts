import { z } from "zod";

import { countSchema, staffCursor, staffLimit } from "../staff.types";

/** The audit log: who did what to which target. */
export const listAuditInput = z.strictObject({
  actor: z.string().trim().min(1).max(254).optional(),
  action: z.string().trim().min(1).max(100).optional(),
  limit: staffLimit(50),
  cursor: staffCursor,
});
export const listAuditOutput = z.strictObject({
  entries: z.array(
    z.strictObject({
      id: z.string(),
      actor: z.string(),
      action: z.string(),
      target: z.string(),
      /** The organization the target belongs to (none for staff accounts or a deleted organization). */
      organization: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
      details: z.unknown(),
      created_at: z.iso.datetime(),
    }),
  ),
  next_cursor: z.string().nullable(),
  previous_cursor: z.string().nullable(),
  total: countSchema,
});
