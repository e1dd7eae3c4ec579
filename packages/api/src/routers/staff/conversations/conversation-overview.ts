import { conversationOverview } from "@mga/core/conversations";
import { getApiKey } from "@mga/core/keys";

import { staffProcedure } from "../../../trpc";
import { conversationOverviewInput, conversationOverviewOutput } from "./conversations.types";

/** How much a key is used, and its latest conversations (API and embedded chat alike). */
export const getConversationOverview = staffProcedure
  .input(conversationOverviewInput)
  .output(conversationOverviewOutput)
  .query(async ({ ctx, input }) => {
    // An unknown key is a 404, not an empty overview.
    await getApiKey(ctx.db, input.key_id);
    const overview = await conversationOverview(ctx.db, input.key_id, { limit: input.limit });
    return {
      counts: overview.counts,
      last_activity_at: overview.lastActivityAt?.toISOString() ?? null,
      recent: overview.recent.map((conversation) => ({
        id: conversation.id,
        title: conversation.title,
        external_user_id: conversation.externalUserId,
        embedded: conversation.embedded,
        message_count: conversation.messageCount,
        created_at: conversation.createdAt.toISOString(),
        updated_at: conversation.updatedAt.toISOString(),
      })),
    };
  });
