import { staffConversationMessages } from "@mga/core/conversations";
import { staffProcedure } from "../../../trpc";
import { conversationMessagesInput, conversationMessagesOutput } from "./conversations.types";

/** One conversation of the key, with its messages (another key's conversation is a 404). */
export const listConversationMessages = staffProcedure
  .input(conversationMessagesInput)
  .output(conversationMessagesOutput)
  .query(async ({ ctx, input }) => {
    const { conversation, messages } = await staffConversationMessages(ctx.db, input.key_id, input.conversation_id);
    return {
      conversation: { id: conversation.id, title: conversation.title, external_user_id: conversation.externalUserId, created_at: conversation.createdAt.toISOString() },
      messages: messages.map((message) => ({
        id: message.id,
        role: message.role,
        content: message.content,
        status: message.status,
        citations: message.citations.length,
        created_at: message.createdAt.toISOString(),
      })),
    };
  });
