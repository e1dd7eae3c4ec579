import { ApiError } from "../errors/api-error";
import { MgaError } from "../errors/mga-error";
import type { StreamEvent } from "../types";
import { AnswerCollector, type FinalAnswer } from "./final-answer";
import type { ResumableFrames } from "./resumable-frames";

/**
 * A streamed answer: iterate it for typed frames (`for await (const frame of stream)`), or for
 * the text alone (`stream.text()`), or await `finalAnswer()`. A lost connection, or a server that
 * asks to resume, is resumed after the last frame received without the loop noticing (bounded by
 * `maxStreamResumes`, then a StreamResumeError); one lost before the first frame is thrown as an
 * ApiConnectionError. The terminal `error` frame is thrown as an ApiError. Leaving the loop early
 * (break, return, a throw) closes the connection only: the service still generates and stores the
 * answer, which `cancel()` stops. One pass only: the frames are read from the network as they come.
 */
export class MessageStream implements AsyncIterable<StreamEvent> {
  private readonly collector = new AnswerCollector();
  private started = false;
  private cancelling: Promise<void> | undefined;

  /** Made by the SDK's stream calls (`messages.stream`, `conversations.messages.stream`, `conversations.resume`). */
  constructor(private readonly source: ResumableFrames) {}

  /**
   * The `id:` of the last frame received (undefined before the first). Keep it with
   * `conversationId` to resume the answer later, from another process if need be:
   * `client.conversations.resume(conversationId, { lastEventId })`.
   */
  get lastEventId(): string | undefined {
    return this.source.lastEventId;
  }

  /** The answer's conversation: the one called, or the one the public_api_conversation frame announced. */
  get conversationId(): string | undefined {
    return this.source.conversationId;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent> {
    if (this.started) throw new MgaError("A MessageStream can be read once: it is consumed as it arrives");
    this.started = true;
    let finished = false;
    try {
      for await (const frame of this.source.frames()) {
        if (frame.type === "error") {
          throw new ApiError({
            status: frame.status,
            code: frame.error.code,
            message: frame.error.message,
            requestId: frame.error.request_id,
          });
        }
        this.collector.add(frame);
        yield frame;
      }
      finished = true;
    } finally {
      if (!finished) this.source.close();
    }
  }

  /** The content fragments as they arrive, nothing else (`finalAnswer()` still works afterwards). */
  async *text(): AsyncGenerator<string> {
    for await (const frame of this) if (frame.type === "content") yield frame.content;
  }

  /** Reads the rest of the stream (the whole of it when not iterated yet) and returns the answer. */
  async finalAnswer(): Promise<FinalAnswer> {
    if (!this.started) for await (const _frame of this) void _frame;
    const answer = this.collector.answer;
    if (answer) return answer;
    if (this.cancelling) throw new MgaError("The stream was cancelled before its answer was complete");
    throw new ApiError({
      status: 502,
      code: "upstream_error",
      message: "The event stream ended before the answer was complete",
    });
  }

  /**
   * Stops the answer: closes the connection (a loop reading it ends without an error) and asks the
   * service to stop generating it (POST /v1/conversations/{id}/cancel), which stores what was
   * generated as an incomplete message. Before a new conversation's first frame its id is not
   * known yet, and only the connection is closed. Resolves once the service took the request;
   * awaiting it is optional (its failure is then not reported as an unhandled rejection).
   */
  cancel(): Promise<void> {
    if (!this.cancelling) {
      this.cancelling = this.source.cancel();
      this.cancelling.catch(() => {});
    }
    return this.cancelling;
  }

  /** The same as `cancel()`. */
  abort(): Promise<void> {
    return this.cancel();
  }
}
