import { AppError, sendMessage as send } from "@mga/core";
import { withIdempotency } from "../../idempotency/with-idempotency";
import { apiProcedure } from "../../trpc";
import { idempotencyHeaders, sendMessageOutput, sendToConversationInput } from "./conversations.types";
import { STREAM_ON_REST_ONLY } from "./send-message";
import { toSendMessageInput } from "./to-send-message-input";
import { answerToWire } from "./to-wire";

export const sendToConversation = apiProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/conversations/{conversationId}/messages",
      tags: ["conversations"],
      summary: "Send a message to an existing conversation",
      description:
        "Answers with one JSON body, or with `stream: true` as a text/event-stream (content…, content_postprocessed, complete, public_api_complete; or a terminal `error` frame). Idempotency-Key is supported without stream.",
      protect: true,
      requestHeaders: idempotencyHeaders,
    },
    scope: "chat:write",
  })
  .input(sendToConversationInput)
  .output(sendMessageOutput)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, { route: "POST /v1/conversations/{conversationId}/messages", input, status: 200, stream: input.stream }, async () => {
      if (input.stream) throw new AppError("invalid_request", STREAM_ON_REST_ONLY);
      const result = await send({ db: ctx.db, upstream: ctx.upstream }, toSendMessageInput(ctx.key, ctx.requestId, input), {
        mode: "json",
        signal: ctx.signal,
      });
      return answerToWire(ctx.requestId, result, false);
    }),
  );
