import { z } from "zod";

import { MESSAGE_ROLES, MESSAGE_STATUSES } from "@mga/core/conversations";

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

/** The loan of a hosted-chat conversation: the launch's loan context (spec 2.12's fields only). */
const loanSchema = z.strictObject({
  external_loan_id: z.string(),
  program: z.union([z.string(), z.number()]).optional(),
  purpose: z.union([z.string(), z.number()]).optional(),
  occupancy: z.union([z.string(), z.number()]).optional(),
  property_type: z.union([z.string(), z.number()]).optional(),
  property_state: z.union([z.string(), z.number()]).optional(),
  units: z.union([z.string(), z.number()]).optional(),
  milestone: z.union([z.string(), z.number()]).optional(),
  application_date: z.union([z.string(), z.number()]).optional(),
});

/** The launch that started a hosted-chat conversation. */
const launchSchema = z.strictObject({
  id: z.string(),
  integration_id: z.string(),
  integration: z.string(),
  public_name: z.string(),
  external_user_id: z.string().nullable(),
  created_at: z.iso.datetime(),
  consumed_at: z.iso.datetime().nullable(),
  expires_at: z.iso.datetime(),
});

/** One guideline excerpt an answer cited, with the answer it belongs to. */
const sourceSchema = z.strictObject({
  message_id: z.string(),
  /** Its number within the answer ([1] is the first). */
  number: z.int().min(1),
  title: z.string().nullable(),
  source_label: z.string().nullable(),
  section: z.string().nullable(),
  excerpt: z.string().nullable(),
  url: z.string().nullable(),
  page: z.int().min(0).nullable(),
});

export const conversationMessagesOutput = z.strictObject({
  conversation: z.strictObject({
    id: z.string(),
    title: z.string().nullable(),
    external_user_id: z.string(),
    created_at: z.iso.datetime(),
    /** Hosted chat only (null for an API conversation). */
    account_generation: z.int().min(1).nullable(),
    loan: loanSchema.nullable(),
    launch: launchSchema.nullable(),
  }),
  /** The excerpts the answers cited, in conversation order. */
  sources: z.array(sourceSchema),
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
