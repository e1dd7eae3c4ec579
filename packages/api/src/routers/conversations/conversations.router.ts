import { router } from "../../trpc";
import { cancelAnswer } from "./cancel-answer";
import { createConversation } from "./create-conversation";
import { getConversation } from "./get-conversation";
import { listConversations } from "./list-conversations";
import { listMessages } from "./list-messages";
import { messageProcedure } from "./message-procedure";
import { sendMessageRoute, sendToConversationRoute } from "./message-routes";
import { resumeAnswer } from "./resume-answer";

export const conversationsRouter = router({
  createConversation,
  sendMessage: messageProcedure(sendMessageRoute),
  sendToConversation: messageProcedure(sendToConversationRoute),
  listConversations,
  getConversation,
  listMessages,
  cancelAnswer,
  resumeAnswer,
});
