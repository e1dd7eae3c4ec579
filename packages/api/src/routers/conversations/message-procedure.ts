import { sendMessage } from "@mga/core/conversations";
import { AppError } from "@mga/core/errors";

import { withIdempotency } from "../../idempotency/with-idempotency";
import { apiProcedure } from "../../trpc";
import { idempotencyHeaders, sendMessageOutput } from "./conversations.types";
import type { MessageInputSchema, MessageRoute } from "./message-routes";
import { toSendMessageInput } from "./to-send-message-input";
import { answerToWire } from "./to-wire";

/** Only apps/server's event-stream route answers `stream: true`; a request that reaches the adapter with it is refused. */
const STREAM_ON_REST_ONLY = "stream: true is answered as text/event-stream by the REST API (POST /v1/messages)";

/** The JSON procedure of a message route: one factory for POST /v1/messages and POST /v1/conversations/{id}/messages. */
export function messageProcedure<Input extends MessageInputSchema>(route: MessageRoute<Input>) {
  return apiProcedure
    .meta({
      openapi: {
        method: "POST",
        path: route.path,
        tags: ["conversations"],
        summary: route.summary,
        description: route.description,
        protect: true,
        requestHeaders: idempotencyHeaders,
      },
      scope: route.scope,
      errors: [404, 409, 502],
    })
    .input(route.input)
    .output(sendMessageOutput)
    .mutation(({ ctx, input }) =>
      withIdempotency(ctx, { route: `POST ${route.path}`, input, status: 200, stream: input.stream }, async () => {
        if (input.stream) throw new AppError("invalid_request", STREAM_ON_REST_ONLY);
        const result = await sendMessage(
          { db: ctx.db, upstream: ctx.upstream },
          toSendMessageInput(ctx.key, ctx.requestId, input),
          {
            mode: "json",
            signal: ctx.signal,
          },
        );
        ctx.record.answer = "json";
        ctx.record.tokensUsed = result.tokensUsed;
        return answerToWire(ctx.requestId, result, route.announcesConversation);
      }),
    );
}
