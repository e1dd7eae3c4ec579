import { type Transport, unwrap } from "../http/transport";
import { type CallOptions, idempotencyHeader, type IdempotentCallOptions } from "../idempotency";
import type { CreateConversationParams, SendMessageResponse, SendToConversationParams } from "../types";
import { openMessageStream, type StreamCallOptions } from "./open-message-stream";

/** /v1/conversations: create and read conversations, and talk in one. */
export class ConversationsResource {
  /** The messages of one conversation: send (JSON or streamed) and read its history. */
  readonly messages: ConversationMessagesResource;

  constructor(private readonly transport: Transport) {
    this.messages = new ConversationMessagesResource(transport);
  }

  create(params: CreateConversationParams, options: IdempotentCallOptions = {}) {
    return unwrap(this.transport.json.POST("/v1/conversations", { body: params, params: { header: idempotencyHeader(options) }, signal: options.signal }));
  }

  get(conversationId: string, options: CallOptions = {}) {
    return unwrap(this.transport.json.GET("/v1/conversations/{conversationId}", { params: { path: { conversationId } }, signal: options.signal }));
  }
}

export class ConversationMessagesResource {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/conversations/{id}/messages: the whole answer as one JSON body. */
  create(conversationId: string, params: SendToConversationParams, options: IdempotentCallOptions = {}): Promise<SendMessageResponse> {
    // The route's 200 is typed with both media types; sent without `stream` it is always the JSON one.
    return unwrap(
      this.transport.answer.POST("/v1/conversations/{conversationId}/messages", {
        params: { path: { conversationId }, header: idempotencyHeader(options) },
        body: { ...params, stream: false },
        signal: options.signal,
      }),
    ) as Promise<SendMessageResponse>;
  }

  /** The same, streamed: frames as they are generated (no Idempotency-Key: streams take none). */
  stream(conversationId: string, params: SendToConversationParams, options: StreamCallOptions = {}) {
    return openMessageStream(options, (signal) =>
      this.transport.stream.POST("/v1/conversations/{conversationId}/messages", { params: { path: { conversationId } }, body: { ...params, stream: true }, parseAs: "stream", signal }),
    );
  }

  /** GET /v1/conversations/{id}/messages: the stored messages, oldest first. */
  list(conversationId: string, options: CallOptions = {}) {
    return unwrap(this.transport.json.GET("/v1/conversations/{conversationId}/messages", { params: { path: { conversationId } }, signal: options.signal }));
  }
}
