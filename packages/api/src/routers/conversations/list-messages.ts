import { listMessages as list } from "@mga/core/conversations";
import { apiProcedure } from "../../trpc";
import { listMessagesInput, listMessagesOutput } from "./conversations.types";
import { messageToWire } from "./to-wire";

export const listMessages = apiProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/conversations/{conversationId}/messages",
      tags: ["conversations"],
      summary: "A conversation's stored messages, oldest first",
      description: "Every stored message in order. An answer cut off by an upstream failure has `metadata.incomplete: true`.",
      protect: true,
    },
    scope: "chat:read",
    errors: [404],
  })
  .input(listMessagesInput)
  .output(listMessagesOutput)
  .query(async ({ ctx, input }) => ({
    request_id: ctx.requestId,
    conversation_id: input.conversationId,
    messages: (await list(ctx.db, ctx.key.id, input.conversationId)).map(messageToWire),
  }));
