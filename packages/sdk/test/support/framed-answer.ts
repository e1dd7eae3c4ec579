import { http, HttpResponse } from "msw";

import type { StreamEvent } from "../../src/index";
import { BASE } from "./mock-api";

/** One answer of conversation conv_1 as the service streams it: every frame with its `id: <answer stream>.<seq>`. */
export const FRAMES: StreamEvent[] = [
  { type: "public_api_conversation", request_id: "req_s", conversation_id: "conv_1", conversation_created: true },
  { type: "content", content: "FHA needs 3.5 % down — " },
  { type: "content", content: "with a 580 score. ✓" },
  { type: "content_postprocessed", content: "FHA needs 3.5 % down — with a 580 score. ✓ [1]" },
  {
    type: "complete",
    metadata: { tokens_used: 42 },
    citations: [{ id: "fha-1", title: "FHA down payment" }],
    sources: [{ source_type: "fha", label: "FHA" }],
  },
  { type: "public_api_complete", request_id: "req_s", conversation_id: "conv_1", message_id: "msg_9" },
];
export const FRAME_IDS = FRAMES.map((_, i) => `ans_A.${i + 1}`);
export const TEXT = "FHA needs 3.5 % down — with a 580 score. ✓ [1]";

/** The event-stream text of frames `from` (0-based) to `to` (exclusive), with their ids. */
export function framesText(from: number, to = FRAMES.length): string {
  return FRAMES.slice(from, to)
    .map((frame, i) => `id: ${FRAME_IDS[from + i]}\ndata: ${JSON.stringify(frame)}\n\n`)
    .join("");
}

/** How many frames come before the one after `lastEventId` (0 without an id). */
export function positionAfter(lastEventId: string | null): number {
  return lastEventId === null ? 0 : FRAME_IDS.indexOf(lastEventId) + 1;
}

export const RECONNECT = ": reconnect: this server is restarting; resume with the last event id\n\n";

export const eventStream = (body: string | ReadableStream<Uint8Array>) =>
  new HttpResponse(body, { headers: { "Content-Type": "text/event-stream" } });

/** A body that sends `text` and then stays open, as a live answer's connection does. */
export function openBody(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
    },
  });
}

/** POST /v1/messages answered with the first `count` frames, then `tail`, then the body ends (a stream cut short). */
export const postAnswers = (count: number, tail = "") =>
  http.post(`${BASE}/v1/messages`, () => eventStream(framesText(0, count) + tail));

/**
 * GET /v1/conversations/conv_1/stream answered as the service does: the frames after Last-Event-ID,
 * at most `perResume` of them (then the body ends, without the terminal frame when it comes short).
 */
export const resumeServes = (perResume = FRAMES.length) =>
  http.get(`${BASE}/v1/conversations/conv_1/stream`, ({ request }) => {
    const from = positionAfter(request.headers.get("last-event-id"));
    return eventStream(framesText(from, from + perResume));
  });

export const cancelAnswers = () =>
  http.post(`${BASE}/v1/conversations/:conversationId/cancel`, ({ params }) =>
    HttpResponse.json(
      {
        request_id: "req_c",
        conversation_id: String(params.conversationId),
        message_id: "msg_9",
        status: "generating",
      },
      { status: 202 },
    ),
  );
