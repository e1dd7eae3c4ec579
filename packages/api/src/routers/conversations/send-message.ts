import { AppError, sendMessage as send } from "@mga/core";
import { withIdempotency } from "../../idempotency/with-idempotency";
import { apiProcedure } from "../../trpc";
import { idempotencyHeaders, sendMessageInput, sendMessageOutput } from "./conversations.types";
import { toSendMessageInput } from "./to-send-message-input";
import { answerToWire } from "./to-wire";

/** Shared by both message routes when the answer is JSON; `stream: true` is served by apps/server as SSE. */
export const STREAM_ON_REST_ONLY = "stream: true is answered as text/event-stream by the REST API (POST /v1/messages)";

export const sendMessage = apiProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/messages",
      tags: ["conversations"],
      summary: "Send a message (creates the conversation when conversation_id is omitted)",
      description:
        "Answers with one JSON body, or with `stream: true` as a text/event-stream (frames `data: <json>`: public_api_conversation, content…, content_postprocessed, complete, public_api_complete; or a terminal `error` frame). Idempotency-Key is supported without stream.",
      protect: true,
      requestHeaders: idempotencyHeaders,
    },
    scope: "chat:write",
  })
  .input(sendMessageInput)
  .output(sendMessageOutput)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, { route: "POST /v1/messages", input, status: 200, stream: input.stream }, async () => {
      if (input.stream) throw new AppError("invalid_request", STREAM_ON_REST_ONLY);
      const result = await send({ db: ctx.db, upstream: ctx.upstream }, toSendMessageInput(ctx.key, ctx.requestId, input), {
        mode: "json",
        signal: ctx.signal,
      });
      return answerToWire(ctx.requestId, result, true);
    }),
  );
