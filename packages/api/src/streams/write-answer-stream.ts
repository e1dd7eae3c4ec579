import type { ServerResponse } from "node:http";
import type { ApiRequest } from "../context";
import { writeErrorResponse } from "../rest/write-error";
import type { FrameSink } from "./answer-frames";
import { SseWriter } from "./sse-writer";

export interface StreamWriterOptions {
  /** Silence after which the stream gets a keep-alive comment. */
  keepAliveMs?: number | undefined;
  /** Told of a failure worth logging (5xx), unless its client had gone. */
  onError?: ((error: unknown, req: ApiRequest) => void) | undefined;
}

/**
 * Writes what `answer` hands over as a text/event-stream, `headers` (the rate limit's) going
 * out with the first frame; a failure `answer` throws (always before the first frame) is an
 * ordinary JSON error response with the same headers. The one SSE writer of both streamed
 * surfaces: the API's message routes and the hosted chat.
 */
export async function writeAnswerStream(
  req: ApiRequest,
  res: ServerResponse,
  options: StreamWriterOptions & { headers: Record<string, string> },
  answer: (sink: FrameSink, onError: (error: unknown) => void) => Promise<void>,
): Promise<void> {
  const sse = new SseWriter(res, options.keepAliveMs);
  const setHeaders = () => {
    for (const [name, value] of Object.entries(options.headers)) res.setHeader(name, value);
  };
  const sink: FrameSink = {
    get hasStarted() {
      return sse.hasStarted;
    },
    send(frame) {
      if (!sse.hasStarted) setHeaders();
      sse.send(frame);
    },
  };
  // A stream cut short by its client is the disconnect's consequence, which the host logs at info.
  const onError = (error: unknown) => {
    if (req.clientGone?.aborted !== true && !req.socket.destroyed) options.onError?.(error, req);
  };
  try {
    await answer(sink, onError);
  } catch (error) {
    if (sse.hasStarted) throw error;
    setHeaders();
    writeErrorResponse(res, req.requestId ?? "", error);
    return;
  }
  sse.end();
}
