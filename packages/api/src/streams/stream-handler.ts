import type { ServerResponse } from "node:http";

import type { SendMessageInput } from "@mga/core/conversations";

import { createContextFactory, type ApiDeps, type ApiRequest } from "../context";
import { answerAsFrames } from "./answer-frames";
import { matchMessageStream, streamMessage } from "./message-stream";
import { matchResumeStream, resumeAnswerStream } from "./resume-stream";
import { writeAnswerStream, type StreamWriterOptions } from "./write-answer-stream";

/**
 * The streamed surface beside the REST handler: the host gives each /v1 request to `handle`
 * first, which starts its stream (a message route with `stream: true`, or the resume of an
 * answer) and returns the stream's promise, or returns undefined at once for the REST handler.
 * Matching, context, the key's gate, the frames, the SSE writing and the resumption all live
 * here, so a stream never crosses back to the host.
 *
 * Not async, and neither is the host's route around it: an async function waiting on a stream
 * keeps its suspended frame (its generator, its registers, its promise) for the stream's whole
 * life, a kilobyte or more for each of a thousand open streams. Returning the promise keeps none.
 */
export function createStreamHandler(deps: ApiDeps & StreamWriterOptions) {
  const createContext = createContextFactory(deps);
  return function handle(req: ApiRequest, res: ServerResponse, path: string): Promise<void> | undefined {
    const message = matchMessageStream(req.method, path, req.body);
    if (message) {
      const ctx = createContext({ req });
      return writeAnswerStream(deps.db, req, res, deps, ctx.response.headers, (sink, options) =>
        streamMessage(ctx, message, sink, options),
      );
    }
    const resume = matchResumeStream(req.method, path);
    if (resume) return resumeAnswerStream(createContext({ req }), req, res, resume, deps);
    return undefined;
  };
}

export type HostedChatStreamDeps = Pick<ApiDeps, "db" | "upstream"> & StreamWriterOptions;

/**
 * The hosted chat's answer as an event stream, through the same writer: `prepare` checks the
 * chat token and builds the input (its failures are ordinary JSON errors); then the frames of
 * spec 6.1, the conversation announced first.
 */
export function writeHostedChatAnswer(
  deps: HostedChatStreamDeps,
  req: ApiRequest,
  res: ServerResponse,
  prepare: () => Promise<SendMessageInput>,
): Promise<void> {
  return writeAnswerStream(deps.db, req, res, deps, {}, (sink, options) =>
    answerAsFrames(deps, prepare, sink, { requestId: req.requestId ?? "", announcesConversation: true, ...options }),
  );
}
