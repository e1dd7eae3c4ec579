import { ApiError } from "../api-error";
import type { StreamEvent } from "../types";
import { AnswerCollector, type FinalAnswer } from "./final-answer";
import { parseFrames } from "./parse-frames";

/**
 * A streamed answer: iterate it for typed frames (`for await (const frame of stream)`), or await
 * `finalAnswer()`. Leaving the loop early (break, return, a throw) aborts the request, so the
 * service stops generating. The terminal `error` frame is thrown as an ApiError.
 * One pass only: the frames are read from the network as they come.
 */
export class MessageStream implements AsyncIterable<StreamEvent> {
  private readonly collector = new AnswerCollector();
  private started = false;

  constructor(
    private readonly body: ReadableStream<Uint8Array>,
    private readonly controller: AbortController,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent> {
    if (this.started) throw new Error("A MessageStream can be read once: it is consumed as it arrives");
    this.started = true;
    let finished = false;
    try {
      for await (const frame of parseFrames(this.body)) {
        if (frame.type === "error") {
          throw new ApiError({ status: frame.status, code: frame.error.code, message: frame.error.message, requestId: frame.error.request_id });
        }
        this.collector.add(frame);
        yield frame;
      }
      finished = true;
    } finally {
      if (!finished) this.controller.abort();
    }
  }

  /** Reads the rest of the stream (the whole of it when not iterated yet) and returns the answer. */
  async finalAnswer(): Promise<FinalAnswer> {
    if (!this.started) for await (const _frame of this) void _frame;
    const answer = this.collector.answer;
    if (!answer) throw new ApiError({ status: 502, code: "upstream_error", message: "The event stream ended before the answer was complete" });
    return answer;
  }

  /** Stops the stream and its request. */
  abort(): void {
    this.controller.abort();
  }
}
