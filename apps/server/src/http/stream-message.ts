import type { ServerResponse } from "node:http";
import { type ApiRequest, presentedKeyOf, sendMessageInput, sendToConversationInput, toApiError, toSendMessageInput, writeErrorResponse } from "@mga/api";
import {
  AppError,
  authenticateApiKey,
  type ChatUpstream,
  type Database,
  enforceRateLimit,
  parseOrThrow,
  requireScope,
  type SendMessageEvent,
  type SendMessageInput,
  sendMessage,
} from "@mga/core";
import type { Logger } from "../log";
import { SseWriter } from "./sse-writer";

/** The two routes that can answer as an event stream; everything else goes to the REST adapter. */
const STREAM_ROUTES: Array<{ pattern: RegExp; withConversationEvent: boolean }> = [
  { pattern: /^\/v1\/messages\/?$/i, withConversationEvent: true },
  { pattern: /^\/v1\/conversations\/([^/]+)\/messages\/?$/i, withConversationEvent: false },
];

export function matchStreamRoute(method: string | undefined, path: string, body: unknown) {
  if (method !== "POST" || typeof body !== "object" || body === null || (body as { stream?: unknown }).stream !== true) return undefined;
  for (const route of STREAM_ROUTES) {
    const match = route.pattern.exec(path);
    if (match) return { withConversationEvent: route.withConversationEvent, conversationId: match[1] ? decodeURIComponent(match[1]) : undefined };
  }
  return undefined;
}

/**
 * POST …messages with `stream: true` (spec 6.1). trpc-to-openapi cannot stream, so this
 * route runs the same checks as the JSON procedures (key, rate limit, scope, the same zod
 * schema) and the same core sendMessage, writing its events as SSE frames:
 *   public_api_conversation (POST /v1/messages only), content…, content_postprocessed,
 *   complete, then public_api_complete with the stored message id.
 * Exactly one terminal frame ends every stream: public_api_complete, or
 *   {"type":"error","status":502,"error":{code,message,request_id}}.
 * A failure before the first frame is an ordinary JSON error response (502 for the upstream).
 */
export async function streamMessage(
  deps: StreamDeps,
  req: ApiRequest,
  res: ServerResponse,
  route: { withConversationEvent: boolean; conversationId: string | undefined },
): Promise<void> {
  await streamAnswer(deps, req, res, { withConversationEvent: route.withConversationEvent }, async () => {
    const key = await authenticateApiKey(deps.db, presentedKeyOf(req));
    for (const [name, value] of Object.entries(enforceRateLimit(key.rateLimit))) res.setHeader(name, value);
    requireScope(key, "chat:write");
    if (req.headers["idempotency-key"] !== undefined) {
      throw new AppError("invalid_request", "Idempotency-Key is not supported with stream: true; send one or the other");
    }
    const input = route.conversationId
      ? parseOrThrow(sendToConversationInput, { ...(req.body as object), conversationId: route.conversationId })
      : parseOrThrow(sendMessageInput, req.body);
    return toSendMessageInput(key, req.requestId ?? "", input);
  });
}

export interface StreamDeps {
  db: Database;
  upstream: ChatUpstream;
  logger: Logger;
  keepAliveMs?: number | undefined;
}

/**
 * Answers one message as an event stream: `prepare` checks the caller and builds the input
 * (its failures are ordinary JSON errors); then the frames of spec 6.1, ending with exactly
 * one terminal frame. Shared by the API's message routes and the hosted chat.
 */
export async function streamAnswer(
  deps: StreamDeps,
  req: ApiRequest,
  res: ServerResponse,
  options: { withConversationEvent: boolean },
  prepare: () => Promise<SendMessageInput>,
): Promise<void> {
  const requestId = req.requestId ?? "";
  const sse = new SseWriter(res, deps.keepAliveMs);
  try {
    const input = await prepare();
    const onEvent = (event: SendMessageEvent) => {
      switch (event.type) {
        case "conversation":
          if (options.withConversationEvent) {
            sse.send({ type: "public_api_conversation", request_id: requestId, conversation_id: event.conversationId, conversation_created: event.conversationCreated });
          }
          return;
        case "content":
        case "content_postprocessed":
          sse.send({ type: event.type, content: event.content });
          return;
        case "complete":
          sse.send({ type: "complete", metadata: { tokens_used: event.tokensUsed }, citations: event.citations, sources: event.sources });
          return;
      }
    };
    const result = await sendMessage({ db: deps.db, upstream: deps.upstream }, input, { mode: "stream", signal: req.clientGone, onEvent });
    sse.send({ type: "public_api_complete", request_id: requestId, conversation_id: result.conversationId, message_id: result.messageId });
    sse.end();
  } catch (error) {
    const mapped = toApiError(error);
    if (mapped.status >= 500) deps.logger.error("stream failed", { request_id: requestId, error: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error) });
    if (!sse.hasStarted) {
      writeErrorResponse(res, requestId, error);
      return;
    }
    sse.send({ type: "error", status: mapped.status, error: { code: mapped.code, message: mapped.message, request_id: requestId } });
    sse.end();
  }
}
