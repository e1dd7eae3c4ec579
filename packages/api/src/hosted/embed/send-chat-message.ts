import { embeddedMessageInput } from "@mga/core/launches";

import { writeHostedChatAnswer, type HostedChatStreamDeps } from "../../streams/stream-handler";
import { parseInput, type HostedRoute } from "../hosted-route";
import { chatAuthority } from "./chat-authority";
import { chatMessageInput } from "./embed.types";

/**
 * POST /embed/api/chat/messages {message, conversation_id?}: the answer as an event stream,
 * through the writer every stream uses (spec 6.1's frames). The token and the input are
 * checked before the first frame, so their refusals are ordinary JSON errors.
 */
export const sendChatMessage = (deps: HostedChatStreamDeps): HostedRoute => ({
  method: "POST",
  path: "/embed/api/chat/messages",
  async handle(req, res) {
    await writeHostedChatAnswer(deps, req, res, async () => {
      const authority = await chatAuthority(deps.db, req);
      const input = parseInput(
        chatMessageInput,
        req.body,
        'send {"message": "…", "conversation_id"?: "…"} (message 1-4000 characters)',
      );
      return embeddedMessageInput(
        deps.db,
        authority,
        { requestId: req.requestId ?? "", message: input.message, conversationId: input.conversation_id },
        deps.observer,
      );
    });
  },
});
