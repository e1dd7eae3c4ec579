import type { ServerResponse } from "node:http";
import { type ApiContext, type ApiRequest, answerAsFrames, type FrameSink, type MessageStreamRequest, streamMessage, writeErrorResponse } from "@mga/api";
import type { ChatUpstream, SendMessageInput } from "@mga/core/conversations";
import type { Database } from "@mga/core/db";
import type { Logger } from "../log";
import { hasGone } from "./request-pipeline";
import { SseWriter } from "./sse-writer";

export interface StreamDeps {
  db: Database;
  upstream: ChatUpstream;
  logger: Logger;
  keepAliveMs?: number | undefined;
}

/**
 * POST …messages with `stream: true` (spec 6.1). trpc-to-openapi cannot stream, so the api's
 * streamMessage runs the route's pipeline (the same checks as its JSON procedure) and hands
 * the frames over; this writes them as SSE, with the headers the pipeline recorded (rate limit).
 */
export function writeMessageStream(deps: StreamDeps, ctx: ApiContext, req: ApiRequest, res: ServerResponse, request: MessageStreamRequest): Promise<void> {
  return writeFrames(deps, req, res, ctx.response.headers, (sink, onError) => streamMessage(ctx, request, sink, { onError }));
}

/**
 * The hosted chat's answer as an event stream: `prepare` checks the chat token and builds the
 * input (its failures are ordinary JSON errors); then the frames of spec 6.1.
 */
export function streamAnswer(deps: StreamDeps, req: ApiRequest, res: ServerResponse, options: { withConversationEvent: boolean }, prepare: () => Promise<SendMessageInput>): Promise<void> {
  return writeFrames(deps, req, res, {}, (sink, onError) =>
    answerAsFrames(deps, prepare, sink, { requestId: req.requestId ?? "", signal: req.clientGone, announcesConversation: options.withConversationEvent, onError }),
  );
}

/**
 * Writes what `answer` hands over as a text/event-stream, `headers` going out with the first
 * frame; a failure `answer` throws (always before the first frame) is an ordinary JSON error
 * response with the same headers.
 */
async function writeFrames(
  deps: StreamDeps,
  req: ApiRequest,
  res: ServerResponse,
  headers: Record<string, string>,
  answer: (sink: FrameSink, onError: (error: unknown) => void) => Promise<void>,
): Promise<void> {
  const requestId = req.requestId ?? "";
  const sse = new SseWriter(res, deps.keepAliveMs);
  const setHeaders = () => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
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
  const onError = (error: unknown) => {
    // A stream cut short by its client is the disconnect's consequence, logged by the pipeline at info.
    if (hasGone(req)) return;
    deps.logger.error("stream failed", { request_id: requestId, error: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error) });
  };
  try {
    await answer(sink, onError);
  } catch (error) {
    if (sse.hasStarted) throw error;
    setHeaders();
    writeErrorResponse(res, requestId, error);
    return;
  }
  sse.end();
}
