import type { ServerResponse } from "node:http";

import { answerStreamsOf, frameId, type AnswerStreams, type LiveAnswer } from "@mga/core/answers";
import { ANSWER_CANCELLED } from "@mga/core/conversations";
import type { Database } from "@mga/core/db";
import { AppError } from "@mga/core/errors";
import type { Observer } from "@mga/core/observe";

import type { ApiRequest, RequestRecord } from "../context";
import { noteTouchedResource } from "../pipeline/request-record";
import { writeErrorResponse } from "../rest/write-error";
import type { StreamEvent } from "../routers/conversations/conversations.types";
import type { AnswerStreamOptions, FrameSink } from "./answer-frames";
import { SseWriter } from "./sse-writer";

export interface StreamWriterOptions {
  /** Silence after which the stream gets a keep-alive comment. */
  keepAliveMs?: number | undefined;
  /** Told of a failure worth logging (5xx), unless its client had gone. */
  onError?: ((error: unknown, req: ApiRequest) => void) | undefined;
  /** The host's metrics and traces: told when each stream opens and closes, of hosted-chat rate-limit refusals. */
  observer?: Observer | undefined;
}

/** What the answer's run gets: where its frames go, and how it is stopped and stored. */
export type AnswerRun = (
  sink: FrameSink,
  options: Pick<AnswerStreamOptions, "signal" | "answerMetadata" | "onError">,
) => Promise<void>;

/** The answer streams of this database handle (started by the server's main and the test app). */
export function answerStreams(db: Database): AnswerStreams {
  const streams = answerStreamsOf(db);
  if (!streams) throw new AppError("internal_error", "answer streams are not running");
  return streams;
}

/**
 * A streamed answer (the API's message routes and the hosted chat): `run` generates it into a
 * live answer, whose frames go out as text/event-stream with their `id:` (and are written for
 * the other instances in batches, answers/frame-writer). The answer does not depend on this
 * connection: when the client goes, generation goes on to the end and the answer is stored
 * whole, marked `client_disconnected`; a client resumes it from its last id. A failure
 * before the first frame is an ordinary JSON error with the same headers (the rate limit's).
 */
export async function writeAnswerStream(
  db: Database,
  req: ApiRequest,
  res: ServerResponse,
  options: StreamWriterOptions,
  /** Sent with the first frame, or with the error that comes before it (the rate limit's). */
  headers: Record<string, string>,
  run: AnswerRun,
): Promise<void> {
  const streams = answerStreams(db);
  const live = streams.begin(req.requestId ?? "");
  const sse = new SseWriter(res, options.keepAliveMs, options.observer);
  const setHeaders = () => {
    for (const name in headers) res.setHeader(name, headers[name] as string);
  };
  const unsubscribe = live.subscribe(0, (frame) => {
    if (!sse.hasStarted) setHeaders();
    sse.sendFrame(frameId(live.id, frame.seq), frame.data);
  });
  // Sent off at the end of a drain, the client is gone from this answer as after a dropped connection.
  const leaving = streams.onShutdown(() => {
    sendOff(sse);
    streams.markClientGone(live);
  });
  const onClose = () => {
    if (!res.writableFinished) streams.markClientGone(live);
  };
  res.on("close", onClose);
  const sink: FrameSink = {
    get hasStarted() {
      return live.lastSeq > 0;
    },
    identify(answer) {
      live.identity = answer;
      noteTouchedResource(req.record, { conversationId: answer.conversationId });
    },
    send(frame) {
      noteFrame(req.record, frame);
      live.push(JSON.stringify(frame), terminalStatus(live, frame));
    },
  };
  // A stream cut short by its client is the disconnect's consequence, which the host logs at info.
  const onError = (error: unknown) => {
    if (req.clientGone?.aborted !== true && !req.socket.destroyed) options.onError?.(error, req);
  };
  try {
    await run(sink, {
      signal: live.abort.signal,
      answerMetadata: () => ({ client_disconnected: live.clientGone }),
      onError,
    });
  } catch (error) {
    // Only a failure before the first frame is thrown (after it, the terminal frame says it).
    if (live.lastSeq > 0) throw error;
    streams.drop(live);
    setHeaders();
    writeErrorResponse(res, req.requestId ?? "", error);
    return;
  } finally {
    unsubscribe();
    leaving();
    res.off("close", onClose);
  }
  // The stream ends once its answer is written: a client that read it to the end and resumes
  // elsewhere finds every frame there.
  await streams.written(live);
  sse.end();
}

/** What usage counts of a stream: its answer and tokens on completion, or the terminal frame's error code. */
function noteFrame(record: RequestRecord | undefined, frame: StreamEvent): void {
  if (!record) return;
  if (frame.type === "complete") {
    record.answer = "streamed";
    record.tokensUsed = frame.metadata.tokens_used;
  } else if (frame.type === "error") record.errorCode ??= frame.error.code;
}

/** The status a frame ends its answer with, if it is a terminal one. */
function terminalStatus(live: LiveAnswer, frame: StreamEvent): "complete" | "failed" | "cancelled" | undefined {
  if (frame.type === "public_api_complete") return "complete";
  if (frame.type !== "error") return undefined;
  return live.abort.signal.reason === ANSWER_CANCELLED ? "cancelled" : "failed";
}

/**
 * Ends a stream because this instance is shutting down, with a comment telling the client to
 * resume from its last id (an instance behind the same address will answer); clients that
 * ignore comments see the stream end without its terminal frame, as after a dropped connection.
 */
export function sendOff(sse: SseWriter): void {
  if (sse.isClosed) return;
  sse.comment("reconnect: this server is restarting; resume with the last event id");
  sse.end();
}
