import { hash } from "node:crypto";

import { AppError } from "../errors/app-error";
import type { ServerSecrets } from "../secrets/server-secrets";

/**
 * Opaque keyset cursors for every list: the position of the last row returned plus a digest of
 * the filters, signed with the server secret. Only a cursor this service issued decodes, so
 * nothing a client makes up ever reaches a query; one used with other filters is a 400 rather
 * than a silently wrong page. Keyset positions keep pages stable while rows are inserted: new
 * rows sort after every existing one (or, newest first, before the first page).
 *
 * Two kinds of position: a (timestamp, id) pair for lists ordered by time (`createdAt` is the
 * list's ordering timestamp: the creation time, or for conversations their last activity), and
 * a row's number within its parent for a conversation's messages (their `position`).
 */
export interface CursorPosition {
  createdAt: string;
  id: string;
  /**
   * A cursor back: the page is the rows just before this one (the staff console's Previous,
   * so its links need not carry every earlier page's cursor). Absent: the rows after it.
   */
  backward?: true;
}

const notOurs = () => new AppError("invalid_request", "cursor: not a cursor returned by this API", { field: "cursor" });
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ROW_ID = /^[A-Za-z0-9_]{1,64}$/;

export function encodeCursor(secrets: ServerSecrets, position: CursorPosition, filters: unknown): string {
  return seal(secrets, { c: position.createdAt, i: position.id, ...(position.backward ? { b: 1 } : {}) }, filters);
}

export function decodeCursor(
  secrets: ServerSecrets,
  cursor: string | undefined,
  filters: unknown,
): CursorPosition | undefined {
  const parsed = open(
    secrets,
    cursor,
    filters,
    (body) =>
      typeof body.c === "string" &&
      ISO_INSTANT.test(body.c) &&
      !Number.isNaN(Date.parse(body.c)) &&
      typeof body.i === "string" &&
      ROW_ID.test(body.i) &&
      (body.b === undefined || body.b === 1),
  );
  return (
    parsed && {
      createdAt: parsed.c as string,
      id: parsed.i as string,
      ...(parsed.b === 1 ? { backward: true as const } : {}),
    }
  );
}

/** A cursor after (or, newest first, before) the row at `position` of its parent. */
export function encodePositionCursor(secrets: ServerSecrets, position: number, filters: unknown): string {
  return seal(secrets, { p: position }, filters);
}

/** The largest position a cursor holds: positions are PostgreSQL integers, and a larger one would be a query error. */
const MAX_POSITION = 2_147_483_647;

export function decodePositionCursor(
  secrets: ServerSecrets,
  cursor: string | undefined,
  filters: unknown,
): number | undefined {
  const parsed = open(
    secrets,
    cursor,
    filters,
    (body) => Number.isInteger(body.p) && (body.p as number) >= 0 && (body.p as number) <= MAX_POSITION,
  );
  return parsed && (parsed.p as number);
}

/**
 * A cursor after the row whose sort key is `values` (then `id`), for lists a caller may order
 * by other columns than the time (the console's users by name, say). The list's filters digest
 * includes its order, so a cursor of one order is refused by another.
 */
export function encodeSortCursor(
  secrets: ServerSecrets,
  values: string[],
  id: string,
  filters: unknown,
  backward = false,
): string {
  return seal(secrets, { k: values, i: id, ...(backward ? { b: 1 } : {}) }, filters);
}

/** Sort values are short column values (names at most 200 characters). */
const MAX_SORT_VALUE = 512;

export function decodeSortCursor(
  secrets: ServerSecrets,
  cursor: string | undefined,
  filters: unknown,
  arity: number,
): { values: string[]; id: string; backward?: true } | undefined {
  const parsed = open(
    secrets,
    cursor,
    filters,
    (body) =>
      Array.isArray(body.k) &&
      body.k.length === arity &&
      body.k.every((value) => typeof value === "string" && value.length <= MAX_SORT_VALUE) &&
      typeof body.i === "string" &&
      ROW_ID.test(body.i) &&
      (body.b === undefined || body.b === 1),
  );
  return (
    parsed && {
      values: parsed.k as string[],
      id: parsed.i as string,
      ...(parsed.b === 1 ? { backward: true as const } : {}),
    }
  );
}

// The payload of a (timestamp, id) cursor is what it was before positions existed: cursors issued
// by the previous build still decode.
function seal(secrets: ServerSecrets, position: Record<string, unknown>, filters: unknown): string {
  const payload = Buffer.from(JSON.stringify({ ...position, f: digest(filters) })).toString("base64url");
  return `${payload}.${secrets.sign("cursor", payload)}`;
}

function open(
  secrets: ServerSecrets,
  cursor: string | undefined,
  filters: unknown,
  wellFormed: (body: Record<string, unknown>) => boolean,
): Record<string, unknown> | undefined {
  if (cursor === undefined) return undefined;
  const [payload, mac, extra] = cursor.split(".");
  if (!payload || !mac || extra !== undefined || !secrets.verify("cursor", payload, mac)) throw notOurs();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw notOurs();
  }
  // Signed values are ours, and still checked as strictly as input: a key shared with an older
  // build must not turn into a query error, and one list's cursor is not another kind's.
  if (parsed === null || typeof parsed !== "object" || !wellFormed(parsed as Record<string, unknown>)) throw notOurs();
  const body = parsed as Record<string, unknown>;
  if (body.f !== digest(filters))
    throw new AppError(
      "invalid_request",
      "cursor: pass next_cursor with the same filters as the request that returned it",
      { field: "cursor" },
    );
  return body;
}

function digest(filters: unknown): string {
  return hash("sha256", JSON.stringify(filters ?? null), "base64url").slice(0, 16);
}

/**
 * How a (timestamp, id) keyset list reads one page: `order` is the list's own order; paging
 * back from `from` reads the rows before it in the opposite order (keysetPage turns them
 * round). `comparison` goes between `(created_at, id)` and the cursor's pair.
 */
export function keysetDirection(
  from: { backward?: true } | undefined,
  order: "asc" | "desc",
): { comparison: ">" | "<"; order: "ASC" | "DESC" } {
  const ascending = (order === "asc") !== (from?.backward === true);
  return ascending ? { comparison: ">", order: "ASC" } : { comparison: "<", order: "DESC" };
}

/**
 * One page from rows fetched with `LIMIT limit + 1` in keyset order (keysetDirection): the
 * `limit` rows in the list's order, the cursor after the last of them when more follow, and
 * (`from` given: a page that is not the first) a backward cursor before the first of them when
 * rows precede it. Paging back, the extra row shows that more precede, and rows follow for sure.
 */
export function keysetPage<Row extends { id: string; created_at: Date }>(
  secrets: ServerSecrets,
  rows: Row[],
  limit: number,
  filters: unknown,
  from?: CursorPosition,
): { rows: Row[]; nextCursor: string | null; previousCursor: string | null } {
  return pageBothWays(rows, limit, from, (row, backward) =>
    encodeCursor(
      secrets,
      { createdAt: row.created_at.toISOString(), id: row.id, ...(backward ? { backward: true as const } : {}) },
      filters,
    ),
  );
}

/**
 * keysetPage for any kind of position: `from` is the decoded cursor (undefined on the first
 * page), `cursorAt` makes a cursor after (or, backward, before) a row.
 */
export function pageBothWays<Row>(
  rows: Row[],
  limit: number,
  from: { backward?: true } | undefined,
  cursorAt: (row: Row, backward: boolean) => string,
): { rows: Row[]; nextCursor: string | null; previousCursor: string | null } {
  const at = (row: Row | undefined, backward: boolean) => (row === undefined ? null : cursorAt(row, backward));
  const more = rows.length > limit;
  if (from?.backward) {
    const page = rows.slice(0, limit).reverse();
    return { rows: page, nextCursor: at(page.at(-1), false), previousCursor: more ? at(page[0], true) : null };
  }
  const page = rows.slice(0, limit);
  return {
    rows: page,
    nextCursor: more ? at(page.at(-1), false) : null,
    previousCursor: from ? at(page[0], true) : null,
  };
}

/** keysetPage for any position: `cursorAfter` makes the cursor from the page's last row. */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  cursorAfter: (last: Row) => string,
): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last !== undefined ? cursorAfter(last) : null };
}
