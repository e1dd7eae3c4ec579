import type { Scope } from "@mga/core/keys";

import { sendMessageInput, sendToConversationInput } from "./conversations.types";

export type MessageInputSchema = typeof sendMessageInput | typeof sendToConversationInput;

/**
 * What tells the two message routes (spec 4.4, 4.5) apart. Both transports are built from
 * these definitions: the JSON procedure (message-procedure.ts) and the streamed answer
 * (streams/message-stream.ts), so a route's path, body schema and scope exist once.
 */
export interface MessageRoute<Input extends MessageInputSchema = MessageInputSchema> {
  /** The OpenAPI path; a `{conversationId}` in it is where the conversation id comes from. */
  path: `/v1/${string}`;
  input: Input;
  scope: Scope;
  /** POST /v1/messages may create the conversation, so its answers say which (`conversation_created`, the public_api_conversation frame). */
  announcesConversation: boolean;
  summary: string;
  description: string;
}

export const sendMessageRoute: MessageRoute<typeof sendMessageInput> = {
  path: "/v1/messages",
  input: sendMessageInput,
  scope: "chat:write",
  announcesConversation: true,
  summary: "Send a message (creates the conversation when conversation_id is omitted)",
  description:
    "Answers with one JSON body, or with `stream: true` as a text/event-stream (frames `data: <json>`: public_api_conversation, content…, content_postprocessed, complete, public_api_complete; or a terminal `error` frame). An Idempotency-Key is supported without `stream`; with `stream: true` the header is refused (400), since a stream cannot be replayed.",
};

export const sendToConversationRoute: MessageRoute<typeof sendToConversationInput> = {
  path: "/v1/conversations/{conversationId}/messages",
  input: sendToConversationInput,
  scope: "chat:write",
  announcesConversation: false,
  summary: "Send a message to an existing conversation",
  description:
    "Answers with one JSON body, or with `stream: true` as a text/event-stream (content…, content_postprocessed, complete, public_api_complete; or a terminal `error` frame). An Idempotency-Key is supported without `stream`; with `stream: true` the header is refused (400), since a stream cannot be replayed.",
};

export const MESSAGE_ROUTES: readonly MessageRoute[] = [sendMessageRoute, sendToConversationRoute];
