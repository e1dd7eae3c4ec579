import { listConversations as list } from "@mga/core/conversations";

import { apiProcedure } from "../../trpc";
import { listConversationsInput, listConversationsOutput } from "./conversations.types";
import { conversationToWire } from "./to-wire";

export const listConversations = apiProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/conversations",
      tags: ["conversations"],
      summary: "This key's conversations with one end user, most recently active first",
      description:
        "The conversations this key created for `external_user_id` (a partner's \"recent chats\"), ordered by `updated_at` (each message moves it), newest first, then by id; never another key's. Paged: pass `next_cursor` as `cursor`, with the same `external_user_id`, until it is null. A conversation that gets a message while you page moves to the front: it is not repeated, and it heads the first page when you list again.",
      protect: true,
    },
    scope: "chat:read",
  })
  .input(listConversationsInput)
  .output(listConversationsOutput)
  .query(async ({ ctx, input }) => {
    const page = await list(ctx.db, ctx.key.id, {
      externalUserId: input.external_user_id,
      limit: input.limit,
      cursor: input.cursor,
    });
    return {
      request_id: ctx.requestId,
      conversations: page.conversations.map(conversationToWire),
      next_cursor: page.nextCursor,
    };
  });
