import type { IncomingMessage } from "node:http";

import { textFault } from "@mga/api";
import { AppError } from "@mga/core/errors";

/**
 * The one reader of request input for every surface (/v1, its event streams, /trpc, /site,
 * /embed): whatever passes here is text PostgreSQL can store and JSON can represent, so no
 * input reaches a query or a procedure that would turn into a 500.
 *
 * - bodies: at most 1 MiB (413); JSON (any charset parameter) or an HTML form; valid UTF-8;
 *   JSON nested at most 64 levels; no NUL character and no unpaired UTF-16 surrogate in any
 *   string or key; no number JSON cannot represent (1e400 would become Infinity, then null);
 *   another content type with a body is 415.
 * - the path and the query string: strict percent-encoding, no NUL.
 * Every refusal is a 400 (or 413/415) naming the field.
 */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

export type RequestBody =
  { kind: "none" } | { kind: "json"; value: unknown } | { kind: "form"; value: URLSearchParams };

const utf8 = new TextDecoder("utf-8", { fatal: true });

export async function readRequestBody(req: IncomingMessage): Promise<RequestBody> {
  if (req.method === "GET" || req.method === "HEAD") return { kind: "none" };
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  if (size === 0) return { kind: "none" };
  let text: string;
  try {
    text = utf8.decode(Buffer.concat(chunks));
  } catch {
    throw new AppError("invalid_request", "request body is not valid UTF-8");
  }
  const contentType = req.headers["content-type"]?.toLowerCase() ?? "";
  if (/^application\/json\s*(;|$)/.test(contentType)) {
    return text.trim() === "" ? { kind: "none" } : { kind: "json", value: parseJsonInput(text, "request body") };
  }
  if (/^application\/x-www-form-urlencoded\s*(;|$)/.test(contentType)) return { kind: "form", value: parseForm(text) };
  throw new AppError("invalid_request", "request bodies must be sent as Content-Type: application/json", {
    status: 415,
  });
}

/** JSON from a client (a body, a `?input=` parameter): parsed and checked as above. */
export function parseJsonInput(text: string, what: string): unknown {
  if (nestingDepth(text) > MAX_JSON_DEPTH)
    throw new AppError("invalid_request", `${what} nests deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("invalid_request", `${what} is not valid JSON`);
  }
  checkValue(value, []);
  return value;
}

/**
 * The deepest nesting of arrays and objects, counted on the text before it is parsed, so a
 * body of 500,000 opening brackets costs one pass and no recursion.
 */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, (depth += 1));
    else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return deepest;
}

/**
 * Every string (keys too) and number of a parsed body, with `path` as where it is: one array
 * pushed and popped as the walk goes, copied only into an error's message (a path per key
 * was two arrays per key of every JSON body).
 */
function checkValue(value: unknown, path: Array<string | number>): void {
  if (typeof value === "string") return checkText(value, path);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new AppError("invalid_request", `${name(path)}: number out of range`);
    return;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      path.push(index);
      checkValue(value[index], path);
      path.pop();
    }
    return;
  }
  if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) {
      path.push(key);
      checkText(key, path);
      checkValue((value as Record<string, unknown>)[key], path);
      path.pop();
    }
  }
}

function checkText(text: string, path: Array<string | number>): void {
  const fault = textFault(text);
  if (fault) throw new AppError("invalid_request", `${name(path)}: ${fault}`);
}

/** Where in the body, for the message: without the offending characters themselves. */
const name = (path: Array<string | number>) =>
  path.length === 0
    ? "request body"
    : path.map((part) => String(part).replaceAll("\u0000", "").toWellFormed()).join(".");

function parseForm(text: string): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of decodePairs(text, "form")) form.append(key, value);
  return form;
}

/**
 * The path's segments and the query's parameters, decoded strictly: malformed percent-encoding
 * (which URLSearchParams would pass through as-is) and NUL are 400s naming where.
 */
export function checkRequestTarget(url: string): void {
  // Only the first "?" starts the query: everything after it is the query, as routes read it.
  const mark = url.indexOf("?");
  const path = mark === -1 ? url : url.slice(0, mark);
  const query = mark === -1 ? "" : url.slice(mark + 1);
  for (const segment of path.split("/")) {
    const decoded = decode(segment, "path");
    if (decoded.includes("\u0000")) throw new AppError("invalid_request", "path: contains a NUL character");
  }
  decodePairs(query, "query");
}

function decodePairs(text: string, where: "query" | "form"): Array<[string, string]> {
  if (text === "") return [];
  return text.split("&").map((pair) => {
    const [rawKey = "", rawValue = ""] = pair.split(/=(.*)/s, 2);
    const key = decode(rawKey.replace(/\+/g, " "), where);
    const value = decode(rawValue.replace(/\+/g, " "), where);
    if (key.includes("\u0000") || value.includes("\u0000"))
      throw new AppError("invalid_request", `${key.replace(/\0/g, "") || where}: contains a NUL character`);
    return [key, value];
  });
}

function decode(text: string, where: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new AppError("invalid_request", `${where}: malformed percent-encoding`);
  }
}

function tooLarge() {
  return new AppError("invalid_request", `request body exceeds ${MAX_BODY_BYTES} bytes`, { status: 413 });
}
