import type { z } from "zod";

import type { SendMessageInput } from "@mga/core/conversations";
import type { AuthenticatedKey } from "@mga/core/keys";

import type { sendMessageInput, sendToConversationInput } from "./conversations.types";

/**
 * The wire body of either message route → core's sendMessage input. Shared by the JSON
 * procedures and the streamed answers (streams/message-stream.ts), so they cannot drift apart.
 */
export function toSendMessageInput(
  key: AuthenticatedKey,
  requestId: string,
  input: z.infer<typeof sendMessageInput> | z.infer<typeof sendToConversationInput>,
): SendMessageInput {
  return {
    key,
    requestId,
    message: input.message,
    user: input.user,
    metadata: input.metadata,
    searchOptions: input.search_options,
    conversationId: "conversationId" in input ? input.conversationId : input.conversation_id,
    newConversation: "conversation" in input ? input.conversation : undefined,
  };
}
