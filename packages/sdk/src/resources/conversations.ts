import { unwrap, unwrapStream, type Transport } from "../http/transport";
import { idempotencyHeader, type CallOptions, type IdempotentCallOptions } from "../idempotency";
import { paginate, type Page } from "../paging";
import type {
  CancelAnswerResponse,
  Conversation,
  CreateConversationParams,
  ListConversationsQuery,
  ListMessagesQuery,
  Message,
  SendMessageResponse,
  SendToConversationParams,
} from "../types";
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
    return unwrap(
      this.transport.json.POST("/v1/conversations", {
        body: params,
        params: { header: idempotencyHeader(options) },
        signal: options.signal,
      }),
    );
  }

  get(conversationId: string, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.GET("/v1/conversations/{conversationId}", {
        params: { path: { conversationId } },
        signal: options.signal,
      }),
    );
  }

  /**
   * GET /v1/conversations/{id}/stream: the conversation's answer as a MessageStream again, after
   * `lastEventId` (a stream's, kept from before a restart of your process): the frames it had not
   * received, then the live answer to its end, or at once for an answer that ended.
   */
  resume(conversationId: string, options: ResumeOptions = {}) {
    return openMessageStream(this.transport, { ...options, method: "GET", conversationId }, (signal) =>
      requestResume(this.transport.stream, conversationId, options.lastEventId, signal),
    );
  }

  /**
   * POST /v1/conversations/{id}/cancel: stops the conversation's answer being generated, on
   * whichever server generates it (status `generating`, 202); an answer that had ended is left as it
   * was (200, with how it ended). Its streams end with an `error` frame of status 409.
   */
  cancel(conversationId: string, options: CallOptions = {}): Promise<CancelAnswerResponse> {
    return requestCancel(this.transport, conversationId, options.signal);
  }

  /** One page of this key's conversations with one end user, most recently active first; pass `next_cursor` as `cursor` for the next. */
  list(query: ListConversationsQuery & { cursor?: string }, options: CallOptions = {}) {
    return unwrap(this.transport.json.GET("/v1/conversations", { params: { query }, signal: options.signal }));
  }

  /** Every conversation of the end user, fetched page by page as the loop goes. */
  listAll(query: ListConversationsQuery, options: CallOptions = {}): AsyncGenerator<Conversation> {
    return paginate(async (cursor): Promise<Page<Conversation>> => {
      const page = await this.list({ ...query, ...(cursor ? { cursor } : {}) }, options);
      return { items: page.conversations, nextCursor: page.next_cursor };
    });
  }
}

export class ConversationMessagesResource {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/conversations/{id}/messages: the whole answer as one JSON body. */
  create(
    conversationId: string,
    params: SendToConversationParams,
    options: IdempotentCallOptions = {},
  ): Promise<SendMessageResponse> {
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
      unwrapStream(
        this.transport.stream.POST("/v1/conversations/{conversationId}/messages", {
          params: { path: { conversationId } },
          body: { ...params, stream: true },
          parseAs: "stream",
          signal,
        }),
      ),
    );
  }

  /**
   * GET /v1/conversations/{id}/messages: the whole history, oldest first (`order: "desc"`: newest
   * first); with `limit` or `cursor`, one page, whose `next_cursor` is the next one's `cursor`. An
   * answer still being generated is the newest message, with `metadata.generating: true`.
   */
  list(
    conversationId: string,
    query: ListMessagesQuery & { cursor?: string } & CallOptions = {},
    options: CallOptions = {},
  ) {
    // Before paging the second argument was the call options: `list(id, { signal })` still works.
    const { signal = options.signal, ...params } = query;
    return unwrap(
      this.transport.json.GET("/v1/conversations/{conversationId}/messages", {
        params: { path: { conversationId }, query: params },
        signal,
      }),
    );
  }

  /** Every message in `order`, fetched page by page (100 a page unless `limit` says otherwise) as the loop goes. */
  listAll(conversationId: string, query: ListMessagesQuery = {}, options: CallOptions = {}): AsyncGenerator<Message> {
    const paged = { ...query, limit: query.limit ?? 100 };
    return paginate(async (cursor): Promise<Page<Message>> => {
      const page = await this.list(conversationId, { ...paged, ...(cursor ? { cursor } : {}) }, options);
      return { items: page.messages, nextCursor: page.next_cursor ?? null };
    });
  }
}
