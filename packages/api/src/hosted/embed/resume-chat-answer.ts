import { getOwnedConversation } from "@mga/core/conversations";
import { embeddedOwner } from "@mga/core/launches";

import { resumeAnswerInput } from "../../routers/conversations/conversations.types";
import { resumePoint, writeFollowedAnswer } from "../../streams/resume-stream";
import type { HostedChatStreamDeps } from "../../streams/stream-handler";
import { parseInput, pathParameter, type HostedRoute } from "../hosted-route";
import { chatAuthority } from "./chat-authority";

export const CHAT_RESUME_PATH = /^\/embed\/api\/chat\/conversations\/([^/]+)\/stream$/;

/**
 * GET /embed/api/chat/conversations/{id}/stream (Last-Event-ID): the rest of an answer after a
 * dropped stream. The API's resume (its strict input, the query's id winning over the header),
 * under the history route's owner rule, written by the one writer every stream uses.
 */
export const resumeChatAnswer = (deps: HostedChatStreamDeps): HostedRoute => ({
  method: "GET",
  path: CHAT_RESUME_PATH,
  async handle(req, res, match) {
    const authority = await chatAuthority(deps.db, req);
    const query = Object.fromEntries(new URL(req.url ?? "/", "http://local").searchParams);
    const header = req.headers["last-event-id"];
    const input = parseInput(resumeAnswerInput, {
      last_event_id: Array.isArray(header) ? header[0] : header,
      ...query,
      conversationId: pathParameter(match),
    });
    await getOwnedConversation(deps.db, embeddedOwner(authority), input.conversationId);
    const from = await resumePoint(deps.db, input.conversationId, input.last_event_id);
    await writeFollowedAnswer(deps.db, req, res, from, { ...deps, headers: {} });
  },
});
