import { parseOrThrow } from "@mga/core/errors";

import type { ApiContext } from "../context";
import { refuseIdempotencyKeyWithStream } from "../idempotency/idempotency-rules";
import { authorizeKeyRequest } from "../pipeline/authorize-key-request";
import { noteRoute } from "../pipeline/request-record";
import { pathPattern } from "../rest/path-pattern";
import { MESSAGE_ROUTES, type MessageRoute } from "../routers/conversations/message-routes";
import { toSendMessageInput } from "../routers/conversations/to-send-message-input";
import { answerAsFrames, type AnswerStreamOptions, type FrameSink } from "./answer-frames";

/** A message route asked to stream: which one, and its input as the JSON procedure would get it (body and path parameters). */
export interface MessageStreamRequest {
  route: MessageRoute;
  input: unknown;
}

/**
 * The route a request streams on, if any: POST to a message route with `stream: true` (spec 6.1).
 * Paths match as the REST adapter matches them (any case, one trailing slash), and path
 * parameters join the body as they do there. Anything else goes to the REST adapter.
 */
export function matchMessageStream(
  method: string | undefined,
  path: string,
  body: unknown,
): MessageStreamRequest | undefined {
  if (method !== "POST" || typeof body !== "object" || body === null || (body as { stream?: unknown }).stream !== true)
    return undefined;
  for (const [route, pattern] of ROUTE_PATTERNS) {
    const match = pattern.exec(path);
    if (!match) continue;
    const parameters = Object.fromEntries(
      Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]),
    );
    return { route, input: { ...body, ...parameters } };
  }
  return undefined;
}

/** Built once: matching runs on every POST with `stream: true`. */
const ROUTE_PATTERNS: Array<[MessageRoute, RegExp]> = MESSAGE_ROUTES.map((route) => [route, pathPattern(route.path)]);

/**
 * A message route's streamed answer: the same pipeline as its JSON procedure (key, rate limit,
 * scope; then Idempotency-Key, refused with stream before the body is read; then the route's
 * own input schema, so refusals are word for word the JSON route's), then the answer's frames.
 * The rate-limit headers are recorded on `ctx.response` for the host to send.
 */
export function streamMessage(
  ctx: ApiContext,
  request: MessageStreamRequest,
  sink: FrameSink,
  options: Pick<AnswerStreamOptions, "onError" | "signal" | "answerMetadata"> = {},
): Promise<void> {
  const { route } = request;
  noteRoute(ctx.record, "POST", route.path, "conversations");
  const prepare = async () => {
    const key = await authorizeKeyRequest(ctx, route.scope);
    refuseIdempotencyKeyWithStream(ctx.idempotencyKey);
    return toSendMessageInput(key, ctx.requestId, parseOrThrow(route.input, request.input));
  };
  return answerAsFrames(ctx, prepare, sink, {
    requestId: ctx.requestId,
    announcesConversation: route.announcesConversation,
    ...options,
  });
}
