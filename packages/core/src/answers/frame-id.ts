/**
 * A frame's SSE `id`: `<answer stream id>.<seq>`. Clients treat it as opaque (docs); the server
 * finds the answer and the position from it alone, so it works on any instance and for a route
 * whose stream never announced its conversation.
 */
export function frameId(streamId: string, seq: number): string {
  return `${streamId}.${seq}`;
}

/** What a frame id looks like (the OpenAPI document's pattern for Last-Event-ID). */
export const FRAME_ID_PATTERN = /^(ans_[0-9A-Za-z]{22})\.(0|[1-9][0-9]{0,8})$/;

/** The answer and position a frame id names, or undefined when it is not one of ours. */
export function parseFrameId(id: string): { streamId: string; seq: number } | undefined {
  const match = FRAME_ID_PATTERN.exec(id);
  return match ? { streamId: match[1] as string, seq: Number(match[2]) } : undefined;
}
