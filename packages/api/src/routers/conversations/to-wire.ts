import { frameId, type GeneratingAnswer } from "@mga/core/answers";
import type { ConversationRecord, HistoryEntry, MessageRecord, SendMessageResult } from "@mga/core/conversations";

import { RESUME_PATH } from "../../streams/resume-stream";

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

/**
 * An answer still being generated, as the message it becomes: what it has said so far, and where
 * the rest follows (docs/decisions.md, "Resumable answers"). `tokens_used` is 0 as on every answer
 * that recorded none, so an answer's metadata always has it.
 */
export function generatingToWire(conversationId: string, answer: GeneratingAnswer) {
  const lastEventId = frameId(answer.streamId, answer.lastSeq);
  return {
    message_id: answer.messageId,
    role: "assistant" as const,
    content: answer.content,
    citations: [],
    sources: [],
    metadata: {
      generating: true,
      tokens_used: 0,
      last_event_id: lastEventId,
      resume_path: `${RESUME_PATH.replace("{conversationId}", encodeURIComponent(conversationId))}?last_event_id=${encodeURIComponent(lastEventId)}`,
    },
    created_at: answer.startedAt.toISOString(),
  };
}

export function historyEntryToWire(conversationId: string, entry: HistoryEntry) {
  return entry.type === "message" ? messageToWire(entry.message) : generatingToWire(conversationId, entry.answer);
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
