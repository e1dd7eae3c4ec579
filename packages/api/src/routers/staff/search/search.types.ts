import { z } from "zod";

import { SEARCH_KINDS } from "@mga/core/search";

export const searchInput = z.strictObject({ q: z.string().trim().min(1).max(254) });

const organizationRef = z.strictObject({ id: z.string(), name: z.string() });

/** One kind of hit: the first ones found, and whether there are more. */
const hits = <T extends z.ZodType>(item: T) => z.strictObject({ items: z.array(item), more: z.boolean() });

export const searchOutput = z.strictObject({
  /** The kinds in the order to show them: exact matches first, then entities before users (core's rankKinds). */
  order: z.array(z.enum(SEARCH_KINDS)),
  users: hits(
    z.strictObject({
      external_user_id: z.string(),
      email: z.string(),
      name: z.string().nullable(),
      status: z.string(),
      integration: z.strictObject({ id: z.string(), slug: z.string() }),
      organization: organizationRef,
    }),
  ),
  organizations: hits(organizationRef),
  integrations: hits(
    z.strictObject({ id: z.string(), slug: z.string(), status: z.string(), organization: organizationRef }),
  ),
  keys: hits(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      last_four: z.string(),
      status: z.string(),
      organization: organizationRef,
    }),
  ),
  conversations: hits(
    z.strictObject({
      id: z.string(),
      key_id: z.string(),
      title: z.string().nullable(),
      external_user_id: z.string(),
      organization: organizationRef,
    }),
  ),
  operations: hits(
    z.strictObject({
      id: z.string(),
      type: z.string(),
      status: z.string(),
      integration_id: z.string(),
      external_user_id: z.string(),
      organization: organizationRef,
    }),
  ),
});
