import {
  ANSWER_CANCELLED,
  sendMessage,
  type ChatUpstream,
  type SendMessageEvent,
  type SendMessageInput,
} from "@mga/core/conversations";
import { type Database } from "@mga/core/db";

import { toApiError } from "../errors/to-api-error";
import type { StreamEvent } from "../routers/conversations/conversations.types";

/** Where a streamed answer's frames go: the host's event-stream writer, or a live answer. */
export interface FrameSink {
  /** Whether a frame has gone out: from then on a failure can only be a terminal error frame. */
  readonly hasStarted: boolean;
  send(frame: StreamEvent): void;
  /** Told the answer's conversation and message once they are known, before the first frame. */
  identify?(answer: { conversationId: string; messageId: string }): void;
}

export interface AnswerStreamOptions {
  requestId: string;
  /** Stops the upstream call (a cancel: reason ANSWER_CANCELLED); the answer never depends on its client's connection. */
  signal?: AbortSignal | undefined;
  /** More of the stored answer's metadata, read when it is stored. */
  answerMetadata?: (() => Record<string, unknown>) | undefined;
  /** Whether the first frame announces the conversation (public_api_conversation). */
  announcesConversation: boolean;
  /** Told of every failure whose status is 5xx, before or after the first frame (the host logs it). */
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * One message answered as the frames of spec 6.1: `prepare` checks the caller and builds core's
 * input, then core's sendMessage streams: public_api_conversation (when announced), content…,
 * content_postprocessed, complete, then public_api_complete with the stored message id.
 * A failure before the first frame is thrown, for the host to answer as an ordinary JSON error;
 * after it, exactly one terminal frame ends the stream:
 *   {"type":"error","status":502,"error":{code,message,request_id}}.
 * Shared by the API's message routes and the hosted chat.
 */
export async function answerAsFrames(
  deps: { db: Database; upstream: ChatUpstream },
  prepare: () => Promise<SendMessageInput>,
  sink: FrameSink,
  options: AnswerStreamOptions,
): Promise<void> {
  const { requestId } = options;
  try {
    const input = await prepare();
    const onEvent = (event: SendMessageEvent) => {
      switch (event.type) {
        case "conversation":
          sink.identify?.({ conversationId: event.conversationId, messageId: event.messageId });
          if (options.announcesConversation) {
            sink.send({
              type: "public_api_conversation",
              request_id: requestId,
              conversation_id: event.conversationId,
              conversation_created: event.conversationCreated,
            });
          }
          return;
        case "content":
        case "content_postprocessed":
          sink.send({ type: event.type, content: event.content });
          return;
        case "complete":
          sink.send({
            type: "complete",
            metadata: { tokens_used: event.tokensUsed },
            citations: event.citations,
            sources: event.sources,
          });
          return;
      }
    };
    const result = await sendMessage(deps, input, {
      mode: "stream",
      signal: options.signal,
      onEvent,
      answerMetadata: options.answerMetadata,
    });
    sink.send({
      type: "public_api_complete",
      request_id: requestId,
      conversation_id: result.conversationId,
      message_id: result.messageId,
    });
  } catch (error) {
    if (options.signal?.reason === ANSWER_CANCELLED && sink.hasStarted) {
      // Stopped on request (POST …/cancel), not failed: a 409, the answer's state having changed.
      sink.send({
        type: "error",
        status: 409,
        error: {
          code: "invalid_request",
          message: "the answer was cancelled; what had been generated is stored as incomplete",
          request_id: requestId,
        },
      });
      return;
    }
    const mapped = toApiError(error);
    if (mapped.status >= 500) options.onError?.(error);
    if (!sink.hasStarted) throw error;
    sink.send({
      type: "error",
      status: mapped.status,
      error: { code: mapped.code, message: mapped.message, request_id: requestId },
    });
  }
}
