import type { ServerResponse } from "node:http";
import type { SendMessageInput } from "@mga/core/conversations";
import { type ApiDeps, type ApiRequest, createContextFactory } from "../context";
import { answerAsFrames } from "./answer-frames";
import { matchMessageStream, streamMessage } from "./message-stream";
import { type StreamWriterOptions, writeAnswerStream } from "./write-answer-stream";

/**
 * The streamed surface beside the REST handler: the host routes each /v1 request to
 * `handle` first (true when it was a stream: a message route with `stream: true`) and to the
 * REST handler otherwise. Matching, context, the key's gate, the frames and the SSE writing
 * all live here, so a streamed answer never crosses back to the host.
 */
export function createStreamHandler(deps: ApiDeps & StreamWriterOptions) {
  const createContext = createContextFactory(deps);
  return async function handle(req: ApiRequest, res: ServerResponse, path: string): Promise<boolean> {
    const request = matchMessageStream(req.method, path, req.body);
    if (!request) return false;
    const ctx = createContext({ req });
    await writeAnswerStream(req, res, { ...deps, headers: ctx.response.headers }, (sink, onError) => streamMessage(ctx, request, sink, { onError }));
    return true;
  };
}

export type HostedChatStreamDeps = Pick<ApiDeps, "db" | "upstream"> & StreamWriterOptions;

/**
 * The hosted chat's answer as an event stream, through the same writer: `prepare` checks the
 * chat token and builds the input (its failures are ordinary JSON errors); then the frames of
 * spec 6.1, the conversation announced first.
 */
export function writeHostedChatAnswer(deps: HostedChatStreamDeps, req: ApiRequest, res: ServerResponse, prepare: () => Promise<SendMessageInput>): Promise<void> {
  return writeAnswerStream(req, res, { ...deps, headers: {} }, (sink, onError) =>
    answerAsFrames(deps, prepare, sink, { requestId: req.requestId ?? "", signal: req.clientGone, announcesConversation: true, onError }),
  );
}
