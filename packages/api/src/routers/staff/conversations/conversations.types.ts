import { MESSAGE_ROLES, MESSAGE_STATUSES } from "@mga/core/conversations";
import { z } from "zod";
import { countSchema, staffId, staffLimit } from "../staff.types";

/** A key's conversations, read only, for support. */
export const conversationOverviewInput = z.strictObject({ key_id: staffId, limit: staffLimit(20) });
export const conversationOverviewOutput = z.strictObject({
  counts: z.strictObject({ conversations: countSchema, messages: countSchema, embedded: countSchema }),
  last_activity_at: z.iso.datetime().nullable(),
  recent: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string().nullable(),
      external_user_id: z.string(),
      embedded: z.boolean(),
      message_count: countSchema,
      created_at: z.iso.datetime(),
      updated_at: z.iso.datetime(),
    }),
  ),
});

export const conversationMessagesInput = z.strictObject({ key_id: staffId, conversation_id: staffId });
export const conversationMessagesOutput = z.strictObject({
  conversation: z.strictObject({ id: z.string(), title: z.string().nullable(), external_user_id: z.string(), created_at: z.iso.datetime() }),
  messages: z.array(
    z.strictObject({
      id: z.string(),
      role: z.enum(MESSAGE_ROLES),
      content: z.string(),
      status: z.enum(MESSAGE_STATUSES),
      /** How many citations the answer has (the console shows the count only). */
      citations: countSchema,
      created_at: z.iso.datetime(),
    }),
  ),
});
