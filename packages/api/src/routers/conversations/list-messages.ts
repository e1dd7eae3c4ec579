import { messageHistory } from "@mga/core/conversations";

import { apiProcedure } from "../../trpc";
import { listMessagesInput, listMessagesOutput } from "./conversations.types";
import { historyEntryToWire } from "./to-wire";

export const listMessages = apiProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/conversations/{conversationId}/messages",
      tags: ["conversations"],
      summary: "A conversation's messages, oldest first, whole or paged",
      description:
        "Every stored message in order (`order=desc`: newest first). With `limit` (or `cursor`) one page at a time by position, stable while messages are added: pass `next_cursor` as `cursor`, with the same `order`, until it is null. An answer cut off by an upstream failure has `metadata.incomplete: true`. An answer still being generated is shown at the newest end (the last page oldest first, the first newest first, beyond `limit`) with `metadata.generating: true` and the text so far; `metadata.resume_path` follows the rest of it.",
      protect: true,
    },
    scope: "chat:read",
    errors: [404],
  })
  .input(listMessagesInput)
  .output(listMessagesOutput)
  .query(async ({ ctx, input }) => {
    const history = await messageHistory(ctx.db, ctx.key.id, input.conversationId, {
      order: input.order,
      limit: input.limit,
      cursor: input.cursor,
    });
    return {
      request_id: ctx.requestId,
      conversation_id: input.conversationId,
      messages: history.entries.map((entry) => historyEntryToWire(input.conversationId, entry)),
      // Unpaged, the answer keeps its shape of before paging: no next_cursor at all.
      ...(history.nextCursor === undefined ? {} : { next_cursor: history.nextCursor }),
    };
  });
