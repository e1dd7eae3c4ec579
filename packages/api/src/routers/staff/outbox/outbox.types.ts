import { z } from "zod";

import { countSchema, staffCursor, staffLimit } from "../staff.types";

/** The site-account outbox: notifications the local directory would have emailed. */
export const listOutboxInput = z.strictObject({
  email: z.string().trim().max(254).optional(),
  limit: staffLimit(50),
  cursor: staffCursor,
});
export const listOutboxOutput = z.strictObject({
  notifications: z.array(
    z.strictObject({
      id: z.string(),
      kind: z.string(),
      recipient: z.string(),
      created_at: z.iso.datetime(),
      used: z.boolean(),
      link: z.string().nullable(),
      link_hidden: z.boolean(),
    }),
  ),
  next_cursor: z.string().nullable(),
  previous_cursor: z.string().nullable(),
  total: countSchema,
});
