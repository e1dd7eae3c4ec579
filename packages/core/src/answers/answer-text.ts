/** The answer text a stream's frames carry so far: the post-processed text once it came, else the fragments. */
export function answerText(frames: ReadonlyArray<{ data: string }>): string {
  let text = "";
  for (const { data } of frames) {
    const frame = JSON.parse(data) as { type?: string; content?: unknown };
    if (typeof frame.content !== "string") continue;
    if (frame.type === "content") text += frame.content;
    if (frame.type === "content_postprocessed") text = frame.content;
  }
  return text;
}
