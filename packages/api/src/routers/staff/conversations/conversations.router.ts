import { router } from "../../../trpc";
import { listConversationMessages } from "./conversation-messages";
import { getConversationOverview } from "./conversation-overview";

/** A key's conversations, read only, for support. */
export const staffConversationsRouter = router({
  overview: getConversationOverview,
  messages: listConversationMessages,
});
