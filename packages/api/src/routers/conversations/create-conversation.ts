import { createConversation as create } from "@mga/core/conversations";

import { withIdempotency } from "../../idempotency/with-idempotency";
import { apiProcedure } from "../../trpc";
import { createConversationInput, createConversationOutput, idempotencyHeaders } from "./conversations.types";

export const createConversation = apiProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/conversations",
      tags: ["conversations"],
      summary: "Create a conversation",
      description: "Creates an empty conversation owned by this key. Supports Idempotency-Key.",
      protect: true,
      requestHeaders: idempotencyHeaders,
    },
    scope: "chat:write",
    successStatuses: { 201: "The conversation, created (an Idempotency-Key retry returns the same answer)" },
    errors: [409],
  })
  .input(createConversationInput)
  .output(createConversationOutput)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, { route: "POST /v1/conversations", input, status: 201 }, async () => {
      const conversation = await create(ctx.db, {
        apiKeyId: ctx.key.id,
        organizationId: ctx.key.organizationId,
        user: input.user,
        title: input.title,
        metadata: input.metadata,
      });
      return { request_id: ctx.requestId, conversation_id: conversation.id };
    }),
  );
