import { conversationOrigin, staffConversationMessages } from "@mga/core/conversations";

import { staffProcedure } from "../../../trpc";
import { conversationMessagesInput, conversationMessagesOutput } from "./conversations.types";

/** One conversation of the key, with its messages, the excerpts they cite, its loan and launch (another key's conversation is a 404). */
export const listConversationMessages = staffProcedure
  .input(conversationMessagesInput)
  .output(conversationMessagesOutput)
  .query(async ({ ctx, input }) => {
    const { conversation, messages } = await staffConversationMessages(ctx.db, input.key_id, input.conversation_id);
    const { loan, launch, accountGeneration } = await conversationOrigin(ctx.db, conversation.id);
    return {
      conversation: {
        id: conversation.id,
        title: conversation.title,
        external_user_id: conversation.externalUserId,
        created_at: conversation.createdAt.toISOString(),
        account_generation: accountGeneration,
        loan,
        launch: launch && {
          id: launch.id,
          integration_id: launch.integrationId,
          integration: launch.integration,
          public_name: launch.publicName,
          external_user_id: launch.externalUserId,
          created_at: launch.createdAt.toISOString(),
          consumed_at: launch.consumedAt?.toISOString() ?? null,
          expires_at: launch.expiresAt.toISOString(),
        },
      },
      sources: messages.flatMap((message) =>
        message.citations.map((citation, index) => ({
          message_id: message.id,
          number: index + 1,
          title: citation.title ?? null,
          source_label: citation.source_label ?? null,
          section: citation.section ?? null,
          excerpt: citation.excerpt ?? null,
          url: citation.url ?? null,
          page: citation.page ?? null,
        })),
      ),
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
