import { type Transport, unwrap, unwrapStream } from "../http/transport";
import { type CallOptions, idempotencyHeader, type IdempotentCallOptions } from "../idempotency";
import type { CancelAnswerResponse, CreateConversationParams, SendMessageResponse, SendToConversationParams } from "../types";
import { requestCancel, requestResume } from "./answer-requests";
import { openMessageStream, type ResumeOptions, type StreamCallOptions } from "./open-message-stream";

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

  /**
   * GET /v1/conversations/{id}/stream: the conversation's answer as a MessageStream again, after
   * `lastEventId` (a stream's, kept from before a restart of your process): the frames it had not
   * received, then the live answer to its end, or at once for an answer that ended.
   */
  resume(conversationId: string, options: ResumeOptions = {}) {
    return openMessageStream(this.transport, { ...options, method: "GET", conversationId }, (signal) => requestResume(this.transport.stream, conversationId, options.lastEventId, signal));
  }

  /**
   * POST /v1/conversations/{id}/cancel: stops the conversation's answer being generated, on
   * whichever server generates it (status `generating`, 202); an answer that had ended is left as it
   * was (200, with how it ended). Its streams end with an `error` frame of status 409.
   */
  cancel(conversationId: string, options: CallOptions = {}): Promise<CancelAnswerResponse> {
    return requestCancel(this.transport, conversationId, options.signal);
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
    return openMessageStream(this.transport, { ...options, method: "POST", conversationId }, (signal) =>
      unwrapStream(this.transport.stream.POST("/v1/conversations/{conversationId}/messages", { params: { path: { conversationId } }, body: { ...params, stream: true }, parseAs: "stream", signal })),
    );
  }

  /** GET /v1/conversations/{id}/messages: the stored messages, oldest first. */
  list(conversationId: string, options: CallOptions = {}) {
    return unwrap(this.transport.json.GET("/v1/conversations/{conversationId}/messages", { params: { path: { conversationId } }, signal: options.signal }));
  }
}
