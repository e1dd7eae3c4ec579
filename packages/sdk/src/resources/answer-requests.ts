import type { Client as FetchClient } from "openapi-fetch";

import type { paths } from "../generated/openapi";
import { unwrap, unwrapStream, type Transport } from "../http/transport";
import type { AnswerEndpoints } from "../streaming/resumable-frames";

/** GET /v1/conversations/{id}/stream: the answer's frames after `lastEventId` (all of the newest answer without one). */
export function requestResume(
  client: FetchClient<paths>,
  conversationId: string,
  lastEventId: string | undefined,
  signal: AbortSignal,
) {
  const header = lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId };
  return unwrapStream(
    client.GET("/v1/conversations/{conversationId}/stream", {
      params: { path: { conversationId }, header },
      parseAs: "stream",
      signal,
    }),
  );
}

/** POST /v1/conversations/{id}/cancel: 202 while the answer stops, 200 when it had already ended. */
export function requestCancel(transport: Transport, conversationId: string, signal?: AbortSignal) {
  return unwrap(
    transport.json.POST("/v1/conversations/{conversationId}/cancel", { params: { path: { conversationId } }, signal }),
  );
}

/** The requests of a stream after it opened; its resumes are sent once each (the stream counts and spaces them). */
export function answerEndpoints(transport: Transport): AnswerEndpoints {
  return {
    resumeUrl: (conversationId) => `${transport.baseUrl}/v1/conversations/${encodeURIComponent(conversationId)}/stream`,
    resume: (conversationId, lastEventId, signal) =>
      requestResume(transport.resume, conversationId, lastEventId, signal),
    cancel: (conversationId) => requestCancel(transport, conversationId),
  };
}
