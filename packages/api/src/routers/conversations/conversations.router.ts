import { router } from "../../trpc";
import { createConversation } from "./create-conversation";
import { getConversation } from "./get-conversation";
import { listMessages } from "./list-messages";
import { sendMessage } from "./send-message";
import { sendToConversation } from "./send-to-conversation";

export const conversationsRouter = router({ createConversation, sendMessage, sendToConversation, getConversation, listMessages });
