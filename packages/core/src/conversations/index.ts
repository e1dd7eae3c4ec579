// @mga/core/conversations: what the rest of the service may use of this area; everything else is internal.
export { conversationOverview, staffConversationMessages } from "./conversation-overview";
export { type ConversationLaunch, type ConversationOrigin, conversationOrigin } from "./conversation-origin";
export { listPartnerUserConversations, type PartnerUserConversation } from "./partner-user-conversations";
export { createConversation, getOwnedConversation, listMessages } from "./conversations";
export type { ConversationRecord, MessageRecord } from "./conversations";
export { HISTORY_PAGE_MAX, type HistoryEntry, type HistoryInput, messageHistory } from "./history";
export { listConversations } from "./list-conversations";
export { HISTORY_ORDERS, type HistoryOrder, MESSAGE_ROLES, MESSAGE_STATUSES } from "./message-values";
export { ANSWER_CANCELLED, sendMessage } from "./send-message";
export type { SendMessageEvent, SendMessageInput, SendMessageResult } from "./send-message";
export { UpstreamError } from "./upstream/chat-upstream";
export type { ChatUpstream, UpstreamEvent } from "./upstream/chat-upstream";
export { HttpChatUpstream } from "./upstream/http-chat-upstream";
