import { createParser } from "eventsource-parser";

import type { StreamEvent } from "../types";

/** A frame's JSON is small (the whole answer at most); a line longer than this is not our stream. */
const MAX_FRAME_CHARS = 4 * 1024 * 1024;

/** What an event stream carries for the SDK: a frame with its `id:` (absent from older servers), or the server's request to resume elsewhere. */
export type StreamItem = { kind: "frame"; id: string | undefined; frame: StreamEvent } | { kind: "reconnect" };

/**
 * The items of an event-stream body (spec 6.1: `id: <id>`, `data: <json>`, then a blank line),
 * however the bytes are split into chunks. Comments are skipped (keep-alives), except `: reconnect`,
 * which a server sends before it closes a stream because it is shutting down.
 */
export async function* parseStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamItem> {
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(eventStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.kind === "reconnect") yield value;
      else yield { kind: "frame", id: value.id, frame: JSON.parse(value.data) as StreamEvent };
    }
  } finally {
    // Stops the body (and so the request) when the consumer leaves early.
    await reader.cancel().catch(() => {});
  }
}

type RawItem = { kind: "frame"; id: string | undefined; data: string } | { kind: "reconnect" };

/**
 * eventsource-parser's stream reports comments through a callback beside its output; this one
 * puts `: reconnect` in the output, in its place among the frames, so that the frames before it
 * are read first.
 */
function eventStream(): TransformStream<string, RawItem> {
  let feed!: (chunk: string) => void;
  return new TransformStream({
    start(controller) {
      const parser = createParser({
        onEvent: (event) => controller.enqueue({ kind: "frame", id: event.id, data: event.data }),
        onComment: (comment) => {
          if (/^reconnect\b/.test(comment)) controller.enqueue({ kind: "reconnect" });
        },
        onError: (error) => controller.error(error),
        maxBufferSize: MAX_FRAME_CHARS,
      });
      feed = (chunk) => parser.feed(chunk);
    },
    transform(chunk) {
      feed(chunk);
    },
  });
}
