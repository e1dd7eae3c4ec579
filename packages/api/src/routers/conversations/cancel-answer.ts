import { cancelNewestAnswer } from "@mga/core/answers";
import { getOwnedConversation } from "@mga/core/conversations";

import { answerStreams } from "../../streams/write-answer-stream";
import { apiProcedure } from "../../trpc";
import { cancelAnswerInput, cancelAnswerOutput } from "./conversations.types";

export const cancelAnswer = apiProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/conversations/{conversationId}/cancel",
      tags: ["conversations"],
      summary: "Stop the conversation's answer being generated",
      description:
        "A streamed answer is generated to its end whether or not its client stays connected; this stops it, on whichever server generates it. The upstream call ends, what was generated is stored as an incomplete message (metadata.error_code `cancelled`), and the stream (and every resumption of it) ends with the terminal `error` frame, status 409. An answer that had already ended is left as it is (200).",
      protect: true,
    },
    scope: "chat:write",
    successStatuses: {
      200: "The newest answer had already ended: nothing to stop",
      202: "The answer is being stopped",
    },
    errors: [404],
  })
  .input(cancelAnswerInput)
  .output(cancelAnswerOutput)
  .mutation(async ({ ctx, input }) => {
    await getOwnedConversation(ctx.db, ctx.key.id, input.conversationId);
    const answer = await cancelNewestAnswer(answerStreams(ctx.db), input.conversationId);
    if (answer.stopping) ctx.response.status = 202;
    return {
      request_id: ctx.requestId,
      conversation_id: input.conversationId,
      message_id: answer.messageId,
      status: answer.status,
    };
  });
