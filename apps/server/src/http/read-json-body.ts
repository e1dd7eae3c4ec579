import type { IncomingMessage } from "node:http";
import { AppError } from "@mga/core";

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads a JSON request body ourselves rather than through the adapter: it accepts a
 * charset parameter, enforces a size limit (413), and answers malformed JSON with 400.
 * Returns undefined when the request is not JSON (the adapter then answers 415).
 */
export async function readJsonBody(req: IncomingMessage): Promise<{ body: unknown } | undefined> {
  const contentType = req.headers["content-type"]?.toLowerCase() ?? "";
  if (!/^application\/json\s*(;|$)/.test(contentType)) return undefined;
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return { body: undefined };
  try {
    return { body: JSON.parse(text) };
  } catch {
    throw new AppError("invalid_request", "request body is not valid JSON");
  }
}

function tooLarge() {
  return new AppError("invalid_request", `request body exceeds ${MAX_BODY_BYTES} bytes`, { status: 413 });
}
