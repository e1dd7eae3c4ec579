import { listMessages } from "@mga/core/conversations";
import type { Database } from "@mga/core/db";
import { embeddedOwner } from "@mga/core/launches";

import { jsonRoute, pathParameter } from "../hosted-route";
import { chatAuthority } from "./chat-authority";
import { chatHistoryInput, chatHistoryOutput } from "./embed.types";

export const CHAT_HISTORY_PATH = /^\/embed\/api\/chat\/conversations\/([^/]+)\/messages$/;

/** GET /embed/api/chat/conversations/{id}/messages: history, this user's generation and this launch's loan only. */
export const listChatMessages = (db: Database) =>
  jsonRoute({
    method: "GET",
    path: CHAT_HISTORY_PATH,
    caller: (req) => chatAuthority(db, req),
    read: (_req, match) => ({ conversationId: pathParameter(match) }),
    input: chatHistoryInput,
    output: chatHistoryOutput,
    async run({ auth, input, requestId }) {
      const messages = await listMessages(db, embeddedOwner(auth), input.conversationId);
      return {
        body: {
          request_id: requestId,
          messages: messages.map((m) => ({
            message_id: m.id,
            role: m.role,
            content: m.content,
            citations: m.citations,
            // An answer cut off by a failure is shown as such, never as a whole answer.
            complete: m.status === "complete",
            created_at: m.createdAt.toISOString(),
          })),
        },
      };
    },
  });
