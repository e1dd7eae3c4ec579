import { ApiError } from "../errors/api-error";
import { ApiConnectionError, type RequestTarget } from "../errors/connection-errors";
import { MgaError } from "../errors/mga-error";
import type { StreamEvent } from "../types";
import { AnswerCollector, type FinalAnswer } from "./final-answer";
import { parseFrames } from "./parse-frames";

/** The request a stream's body comes from: how to stop it, and what to name in an error. */
export interface StreamRequest extends RequestTarget {
  controller: AbortController;
  /** The controller's signal joined with the caller's. */
  signal: AbortSignal;
}

/**
 * A streamed answer: iterate it for typed frames (`for await (const frame of stream)`), or for
 * the text alone (`stream.text()`), or await `finalAnswer()`. Leaving the loop early (break,
 * return, a throw) or `cancel()` aborts the request, so the service stops generating. The
 * terminal `error` frame is thrown as an ApiError, a connection lost midway as an
 * ApiConnectionError (a stream is never retried once its first frame came).
 * One pass only: the frames are read from the network as they come.
 */
export class MessageStream implements AsyncIterable<StreamEvent> {
  private readonly collector = new AnswerCollector();
  private started = false;
  private cancelled = false;

  constructor(
    private readonly body: ReadableStream<Uint8Array>,
    private readonly request: StreamRequest,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent> {
    if (this.started) throw new MgaError("A MessageStream can be read once: it is consumed as it arrives");
    this.started = true;
    let finished = false;
    try {
      for await (const frame of this.frames()) {
        if (frame.type === "error") {
          throw new ApiError({ status: frame.status, code: frame.error.code, message: frame.error.message, requestId: frame.error.request_id });
        }
        this.collector.add(frame);
        yield frame;
      }
      finished = true;
    } finally {
      if (!finished) this.request.controller.abort();
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
    if (this.cancelled) throw new MgaError("The stream was cancelled before its answer was complete");
    throw new ApiError({ status: 502, code: "upstream_error", message: "The event stream ended before the answer was complete" });
  }

  /**
   * Stops the stream: closes its request, which the service takes as the end of the answer. A
   * loop reading it ends without an error.
   */
  cancel(): void {
    this.cancelled = true;
    this.request.controller.abort();
  }

  /** The same as `cancel()`. */
  abort(): void {
    this.cancel();
  }

  /** The parsed frames, with a failure of the connection named as one. */
  private async *frames(): AsyncGenerator<StreamEvent> {
    try {
      yield* parseFrames(this.body);
    } catch (error) {
      if (this.cancelled) return;
      // The caller's abort is theirs to recognize; fetch's network failures are TypeErrors (Fetch standard).
      if (this.request.signal.aborted || !(error instanceof TypeError)) throw error;
      throw new ApiConnectionError({ method: this.request.method, url: this.request.url, cause: error });
    }
  }
}
