import { unwrap, unwrapStream, type Transport } from "../http/transport";
import { idempotencyHeader, type IdempotentCallOptions } from "../idempotency";
import type { SendMessageParams, SendMessageResponse } from "../types";
import { openMessageStream, type StreamCallOptions } from "./open-message-stream";

/** POST /v1/messages: a message answered, in a new conversation or (with conversation_id) an existing one. */
export class MessagesResource {
  constructor(private readonly transport: Transport) {}

  /** The whole answer as one JSON body. */
  create(params: SendMessageParams, options: IdempotentCallOptions = {}): Promise<SendMessageResponse> {
    // The route's 200 is typed with both media types; sent without `stream` it is always the JSON one.
    return unwrap(
      this.transport.answer.POST("/v1/messages", {
        body: { ...params, stream: false },
        params: { header: idempotencyHeader(options) },
        signal: options.signal,
      }),
    ) as Promise<SendMessageResponse>;
  }

  /** The answer as a stream of typed frames; see MessageStream. Streams take no Idempotency-Key (spec 8). */
  stream(params: SendMessageParams, options: StreamCallOptions = {}) {
    return openMessageStream(
      this.transport,
      { ...options, method: "POST", conversationId: params.conversation_id },
      (signal) =>
        unwrapStream(
          this.transport.stream.POST("/v1/messages", { body: { ...params, stream: true }, parseAs: "stream", signal }),
        ),
    );
  }
}
