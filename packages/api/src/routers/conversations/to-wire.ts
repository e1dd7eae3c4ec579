import type { ConversationRecord, MessageRecord, SendMessageResult } from "@mga/core/conversations";

/** Domain records → the spec's wire shapes (snake_case, ISO timestamps). */
export function conversationToWire(conversation: ConversationRecord) {
  return {
    conversation_id: conversation.id,
    title: conversation.title,
    status: conversation.status,
    created_at: conversation.createdAt.toISOString(),
    updated_at: conversation.updatedAt.toISOString(),
    message_count: conversation.messageCount,
    metadata: conversation.metadata,
  };
}

export function messageToWire(message: MessageRecord) {
  return {
    message_id: message.id,
    role: message.role,
    content: message.content,
    citations: message.citations,
    sources: message.sources,
    metadata: message.status === "complete" ? message.metadata : { ...message.metadata, incomplete: true },
    created_at: message.createdAt.toISOString(),
  };
}

export function answerToWire(requestId: string, result: SendMessageResult, withCreatedFlag: boolean) {
  return {
    request_id: requestId,
    conversation_id: result.conversationId,
    ...(withCreatedFlag ? { conversation_created: result.conversationCreated } : {}),
    message_id: result.messageId,
    response: result.response,
    citations: result.citations,
    sources: result.sources,
    metadata: { tokens_used: result.tokensUsed },
  };
}
