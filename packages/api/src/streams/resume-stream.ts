import type { ServerResponse } from "node:http";

import { frameId, parseFrameId } from "@mga/core/answers";
import { getOwnedConversation } from "@mga/core/conversations";
import type { Database } from "@mga/core/db";
import { AppError, parseOrThrow } from "@mga/core/errors";

import type { ApiContext, ApiRequest } from "../context";
import { authorizeKeyRequest } from "../pipeline/authorize-key-request";
import { noteRoute, noteTouchedResource } from "../pipeline/request-record";
import { pathPattern } from "../rest/path-pattern";
import { writeErrorResponse } from "../rest/write-error";
import { resumeAnswerInput } from "../routers/conversations/conversations.types";
import { SseWriter } from "./sse-writer";
import { answerStreams, sendOff, type StreamWriterOptions } from "./write-answer-stream";

/** GET /v1/conversations/{conversationId}/stream: the path of an answer's resumption. */
export const RESUME_PATH = "/v1/conversations/{conversationId}/stream";
const RESUME = pathPattern(RESUME_PATH);

export function matchResumeStream(method: string | undefined, path: string): { conversationId: string } | undefined {
  if (method !== "GET" && method !== "HEAD") return undefined;
  const match = RESUME.exec(path);
  return match?.groups?.conversationId
    ? { conversationId: decodeURIComponent(match.groups.conversationId) }
    : undefined;
}

/**
 * Resumes a conversation's answer (issue 23): every frame after the one `Last-Event-ID` (or
 * `?last_event_id=`) names, then the live answer until its one terminal frame; without an id, the
 * conversation's newest answer from its first frame. It works on any instance (frames from
 * memory where the answer is generated, from PostgreSQL elsewhere), and for a finished answer it
 * replays the rest and ends at once. The conversation must be the key's (else 404, like every
 * conversation route); an id that is not one of ours is a 400, one of another conversation a 404.
 */
export async function resumeAnswerStream(
  ctx: ApiContext,
  req: ApiRequest,
  res: ServerResponse,
  match: { conversationId: string },
  options: StreamWriterOptions,
): Promise<void> {
  let from: ResumePoint;
  noteRoute(ctx.record, "GET", RESUME_PATH, "conversations");
  try {
    const key = await authorizeKeyRequest(ctx, "chat:read");
    // The route's own schema (the one the document shows): strict, so an unknown parameter is a 400.
    const query = Object.fromEntries(new URL(req.url ?? "/", "http://local").searchParams);
    const header = req.headers["last-event-id"];
    const input = parseOrThrow(resumeAnswerInput, {
      last_event_id: Array.isArray(header) ? header[0] : header,
      ...query,
      conversationId: match.conversationId,
    });
    await getOwnedConversation(ctx.db, key.id, input.conversationId);
    from = await resumePoint(ctx.db, input.conversationId, input.last_event_id);
    noteTouchedResource(ctx.record, { conversationId: input.conversationId });
  } catch (error) {
    for (const [name, value] of Object.entries(ctx.response.headers)) res.setHeader(name, value);
    writeErrorResponse(res, ctx.requestId, error);
    return;
  }
  await writeFollowedAnswer(ctx.db, req, res, from, { ...options, headers: ctx.response.headers });
}

export interface ResumePoint {
  streamId: string;
  afterSeq: number;
}

/**
 * Where a resume of a conversation (already checked to be the caller's) starts: after the frame
 * `lastEventId` names (a 400 when it is not one of ours, a 404 when it is another conversation's),
 * or, without one, at the start of its newest answer (404 when it has none).
 */
export async function resumePoint(
  db: Database,
  conversationId: string,
  lastEventId: string | undefined,
): Promise<ResumePoint> {
  const streams = answerStreams(db);
  if (lastEventId === undefined) {
    const stream = await streams.latest(conversationId);
    if (!stream) throw new AppError("not_found", "this conversation has no answer to resume");
    return { streamId: stream.id, afterSeq: 0 };
  }
  const position = parseFrameId(lastEventId);
  if (!position)
    throw new AppError(
      "invalid_request",
      "last_event_id: not an event id of this API; send the id: of the last frame you received",
      { field: "last_event_id" },
    );
  const stream = await streams.find(position.streamId);
  if (stream?.conversationId !== conversationId)
    throw new AppError("not_found", "no answer of this conversation has this event id");
  return { streamId: stream.id, afterSeq: position.seq };
}

/**
 * Writes an answer's frames from `from` as text/event-stream until its terminal frame (the
 * API's resume and the hosted chat's): a HEAD gets the headers alone; a client that leaves stops
 * only its own following; at the end of a drain the stream is sent off to resume elsewhere.
 */
export async function writeFollowedAnswer(
  db: Database,
  req: ApiRequest,
  res: ServerResponse,
  from: ResumePoint,
  options: StreamWriterOptions & { headers: Record<string, string> },
): Promise<void> {
  const streams = answerStreams(db);
  for (const [name, value] of Object.entries(options.headers)) res.setHeader(name, value);
  const sse = new SseWriter(res, options.keepAliveMs, options.observer);
  sse.open();
  if (req.method === "HEAD") return sse.end();
  const stop = new AbortController();
  const onClose = () => stop.abort();
  res.on("close", onClose);
  const leaving = streams.onShutdown(() => {
    sendOff(sse);
    stop.abort();
  });
  try {
    await streams.follow(
      from.streamId,
      from.afterSeq,
      (frame) => sse.sendFrame(frameId(from.streamId, frame.seq), frame.data),
      stop.signal,
    );
  } finally {
    leaving();
    res.off("close", onClose);
  }
  sse.end();
}
