import { cancelNewestAnswer } from "@mga/core/answers";
import { getOwnedConversation } from "@mga/core/conversations";
import type { Database } from "@mga/core/db";
import { embeddedOwner } from "@mga/core/launches";

import { cancelAnswerInput, cancelAnswerOutput } from "../../routers/conversations/conversations.types";
import { answerStreams } from "../../streams/write-answer-stream";
import { jsonRoute, pathParameter } from "../hosted-route";
import { chatAuthority } from "./chat-authority";

export const CHAT_CANCEL_PATH = /^\/embed\/api\/chat\/conversations\/([^/]+)\/cancel$/;

/**
 * POST /embed/api/chat/conversations/{id}/cancel, the page's Stop: the API's cancel (its input
 * and output, POST /v1/conversations/{id}/cancel) under the history route's owner rule, so a
 * chat token stops only its own user's answers on its loan. 202 while stopping, 200 if ended.
 */
export const cancelChatAnswer = (db: Database) =>
  jsonRoute({
    method: "POST",
    path: CHAT_CANCEL_PATH,
    caller: (req) => chatAuthority(db, req),
    read: (_req, match) => ({ conversationId: pathParameter(match) }),
    input: cancelAnswerInput,
    output: cancelAnswerOutput,
    async run({ auth, input, requestId }) {
      await getOwnedConversation(db, embeddedOwner(auth), input.conversationId);
      const answer = await cancelNewestAnswer(answerStreams(db), input.conversationId);
      return {
        status: answer.stopping ? 202 : 200,
        body: {
          request_id: requestId,
          conversation_id: input.conversationId,
          message_id: answer.messageId,
          status: answer.status,
        },
      };
    },
  });
