import { createHash } from "node:crypto";
import type { ServerSecrets } from "../secrets/server-secrets";
import { AppError } from "../errors/app-error";

/**
 * Opaque keyset cursors for every list: the position (created_at, id) of the last row
 * returned plus a digest of the filters, signed with the server secret. Only a cursor this
 * service issued decodes, so nothing a client makes up ever reaches a query; one used with
 * other filters is a 400 rather than a silently wrong page. Ordering by (created_at, id) keeps
 * pages stable while rows are inserted: new rows sort after every existing one.
 */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

const notOurs = () => new AppError("invalid_request", "cursor: not a cursor returned by this API", { field: "cursor" });
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ROW_ID = /^[A-Za-z0-9_]{1,64}$/;

export function encodeCursor(secrets: ServerSecrets, position: CursorPosition, filters: unknown): string {
  const payload = Buffer.from(JSON.stringify({ c: position.createdAt, i: position.id, f: digest(filters) })).toString("base64url");
  return `${payload}.${secrets.sign("cursor", payload)}`;
}

export function decodeCursor(secrets: ServerSecrets, cursor: string | undefined, filters: unknown): CursorPosition | undefined {
  if (cursor === undefined) return undefined;
  const [payload, mac, extra] = cursor.split(".");
  if (!payload || !mac || extra !== undefined || !secrets.verify("cursor", payload, mac)) throw notOurs();
  let parsed: { c?: unknown; i?: unknown; f?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw notOurs();
  }
  // Signed values are ours, and still checked as strictly as input: a key shared with an older
  // build must not turn into a query error.
  if (typeof parsed.c !== "string" || !ISO_INSTANT.test(parsed.c) || Number.isNaN(Date.parse(parsed.c)) || typeof parsed.i !== "string" || !ROW_ID.test(parsed.i)) {
    throw notOurs();
  }
  if (parsed.f !== digest(filters)) throw new AppError("invalid_request", "cursor: pass next_cursor with the same filters as the request that returned it", { field: "cursor" });
  return { createdAt: parsed.c, id: parsed.i };
}

function digest(filters: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(filters ?? null))
    .digest("base64url")
    .slice(0, 16);
}

/**
 * One page from rows fetched with `LIMIT limit + 1` in keyset order: the first `limit` rows,
 * and the cursor after the last of them when the extra row shows that more follow.
 */
export function keysetPage<Row extends { id: string; created_at: Date }>(secrets: ServerSecrets, rows: Row[], limit: number, filters: unknown): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor(secrets, { createdAt: last.created_at.toISOString(), id: last.id }, filters) : null };
}
