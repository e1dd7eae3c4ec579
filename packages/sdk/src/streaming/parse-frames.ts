import { EventSourceParserStream } from "eventsource-parser/stream";
import type { StreamEvent } from "../types";

/** A frame's JSON is small (the whole answer at most); a line longer than this is not our stream. */
const MAX_FRAME_CHARS = 4 * 1024 * 1024;

/**
 * The frames of an event-stream body (spec 6.1: `data: <json>` then a blank line), however the
 * bytes are split into chunks; comment lines (keep-alives) are skipped by the parser.
 */
export async function* parseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const events = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream({ onError: "terminate", maxBufferSize: MAX_FRAME_CHARS }));
  const reader = events.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield JSON.parse(value.data) as StreamEvent;
    }
  } finally {
    // Stops the body (and so the request) when the consumer leaves early.
    await reader.cancel().catch(() => {});
  }
}
