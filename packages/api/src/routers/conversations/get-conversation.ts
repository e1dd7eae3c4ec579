import { getOwnedConversation } from "@mga/core/conversations";

import { apiProcedure } from "../../trpc";
import { getConversationInput, getConversationOutput } from "./conversations.types";
import { conversationToWire } from "./to-wire";

export const getConversation = apiProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/conversations/{conversationId}",
      tags: ["conversations"],
      summary: "A conversation of this key",
      description: "Only conversations created by this key are visible; any other id is 404.",
      protect: true,
    },
    scope: "chat:read",
    errors: [404],
  })
  .input(getConversationInput)
  .output(getConversationOutput)
  .query(async ({ ctx, input }) => ({
    request_id: ctx.requestId,
    conversation: conversationToWire(await getOwnedConversation(ctx.db, ctx.key.id, input.conversationId)),
  }));
