import { z } from "zod";

import { MESSAGE_ROLES } from "@mga/core/conversations";

import { citationSchema } from "../../routers/conversations/conversations.types";
import { requestIdField } from "../../schemas/common";

/**
 * The hosted chat's JSON shapes (/embed/api/…, embed-api-routes.ts): what its page sends and
 * what it gets back. Not part of the public /v1 document. Inputs keep what the page sends
 * strict; outputs are checked before they are written.
 */

export const consumeLaunchCodeInput = z.strictObject({ code: z.string().min(1).max(256) });
export const consumeLaunchCodeOutput = z.strictObject({
  request_id: requestIdField,
  session_token: z.string().min(1),
  expires_at: z.iso.datetime(),
  login_required: z.boolean(),
  /** The site login with the session token in its fragment (never in a server's logs). */
  login_url: z.string().min(1),
});

export const exchangeSessionOutput = z.discriminatedUnion("status", [
  z.strictObject({
    request_id: requestIdField,
    status: z.literal("authorized"),
    chat_token: z.string().min(1),
    expires_at: z.iso.datetime(),
  }),
  z.strictObject({ request_id: requestIdField, status: z.literal("login_pending") }),
]);

export const chatCheckOutput = z.strictObject({
  request_id: requestIdField,
  expires_at: z.iso.datetime(),
  /** The launch's loan in words (no email, no internal id). */
  loan: z.strictObject({
    external_loan_id: z.string(),
    program: z.string().nullable(),
    purpose: z.string().nullable(),
    property_state: z.string().nullable(),
  }),
  user: z.strictObject({ display_name: z.string().nullable() }),
});

export const chatMessageInput = z.strictObject({
  message: z.string().min(1).max(4000),
  conversation_id: z.string().min(1).max(64).optional(),
});

/** A conversation id from the path: any text (an unknown one is simply not found, 404). */
export const chatHistoryInput = z.strictObject({ conversationId: z.string() });
export const chatHistoryOutput = z.strictObject({
  request_id: requestIdField,
  messages: z.array(
    z.strictObject({
      message_id: z.string().min(1),
      role: z.enum(MESSAGE_ROLES),
      content: z.string(),
      citations: z.array(citationSchema),
      /** False for an answer cut off by a failure: shown as such, never as a whole answer. */
      complete: z.boolean(),
      created_at: z.iso.datetime(),
    }),
  ),
});
