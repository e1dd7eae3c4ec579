import { createHash } from "node:crypto";
import { AppError } from "../../errors/app-error";

/**
 * Opaque keyset cursors: the position (created_at, id) of the last row returned plus a
 * digest of the filters, so a cursor used with other filters is a 400 rather than a
 * silently wrong page. Ordering by (created_at, id) keeps pages stable while rows are
 * inserted: new rows sort after every existing one.
 */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

export function encodeCursor(position: CursorPosition, filters: unknown): string {
  return Buffer.from(JSON.stringify({ c: position.createdAt, i: position.id, f: digest(filters) })).toString("base64url");
}

export function decodeCursor(cursor: string | undefined, filters: unknown): CursorPosition | undefined {
  if (cursor === undefined) return undefined;
  let parsed: { c?: unknown; i?: unknown; f?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new AppError("invalid_request", "cursor: not a cursor returned by this API");
  }
  if (typeof parsed.c !== "string" || typeof parsed.i !== "string" || Number.isNaN(Date.parse(parsed.c))) {
    throw new AppError("invalid_request", "cursor: not a cursor returned by this API");
  }
  if (parsed.f !== digest(filters)) throw new AppError("invalid_request", "cursor: pass next_cursor with the same filters as the request that returned it");
  return { createdAt: parsed.c, id: parsed.i };
}

function digest(filters: unknown): string {
  return createHash("sha256").update(JSON.stringify(filters ?? null)).digest("base64url").slice(0, 16);
}

/**
 * One page from rows fetched with `LIMIT limit + 1` in keyset order: the first `limit` rows,
 * and the cursor after the last of them when the extra row shows that more follow.
 */
export function keysetPage<Row extends { id: string; created_at: Date }>(rows: Row[], limit: number, filters: unknown): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at.toISOString(), id: last.id }, filters) : null };
}
