import type { ServerResponse } from "node:http";

import type { SendMessageInput } from "@mga/core/conversations";

import { createContextFactory, type ApiDeps, type ApiRequest } from "../context";
import { answerAsFrames } from "./answer-frames";
import { matchMessageStream, streamMessage } from "./message-stream";
import { matchResumeStream, resumeAnswerStream } from "./resume-stream";
import { writeAnswerStream, type StreamWriterOptions } from "./write-answer-stream";

/**
 * The streamed surface beside the REST handler: the host routes each /v1 request to `handle`
 * first (true when it was a stream: a message route with `stream: true`, or the resume of an
 * answer) and to the REST handler otherwise. Matching, context, the key's gate, the frames, the
 * SSE writing and the resumption all live here, so a stream never crosses back to the host.
 */
export function createStreamHandler(deps: ApiDeps & StreamWriterOptions) {
  const createContext = createContextFactory(deps);
  return async function handle(req: ApiRequest, res: ServerResponse, path: string): Promise<boolean> {
    const message = matchMessageStream(req.method, path, req.body);
    if (message) {
      const ctx = createContext({ req });
      await writeAnswerStream(deps.db, req, res, { ...deps, headers: ctx.response.headers }, (sink, options) =>
        streamMessage(ctx, message, sink, options),
      );
      return true;
    }
    const resume = matchResumeStream(req.method, path);
    if (resume) {
      await resumeAnswerStream(createContext({ req }), req, res, resume, deps);
      return true;
    }
    return false;
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
  return writeAnswerStream(deps.db, req, res, { ...deps, headers: {} }, (sink, options) =>
    answerAsFrames(deps, prepare, sink, { requestId: req.requestId ?? "", announcesConversation: true, ...options }),
  );
}
