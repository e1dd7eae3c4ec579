/**
 * Splits a text/event-stream body into the `data` payloads of its events (WHATWG
 * server-sent events: lines, `data:` fields joined by "\n", comments ignored, an event
 * ends at a blank line). Chunk boundaries may fall anywhere, inside a line or between the CR
 * and the LF of one line break.
 */
export async function* parseSseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  // The last line ended with a CR at the end of what had arrived: a LF first in the next chunk is the same line break.
  let afterCr = false;
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    if (afterCr && buffer !== "") {
      if (buffer.startsWith("\n")) buffer = buffer.slice(1);
      afterCr = false;
    }
    let newline = buffer.search(/\r\n|\r|\n/);
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      const width = buffer.startsWith("\r\n", newline) ? 2 : 1;
      afterCr = width === 1 && buffer[newline] === "\r" && newline + 1 === buffer.length;
      buffer = buffer.slice(newline + width);
      if (line === "") {
        if (data.length) yield data.join("\n");
        data = [];
      } else if (line.startsWith("data:")) {
        data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
      }
      // Other fields (event:, id:, retry:) and comments (":") carry nothing we use.
      newline = buffer.search(/\r\n|\r|\n/);
    }
  }
  buffer += decoder.decode();
  if (buffer.startsWith("data:")) data.push(buffer.slice(buffer.startsWith("data: ") ? 6 : 5));
  if (data.length) yield data.join("\n");
}
