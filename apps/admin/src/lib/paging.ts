import { param } from "./format";

/**
 * Where a paged table is, from its URL: `cursor` (the API's signed keyset cursor of this page,
 * absent on the first) and `back`, the cursors of the pages between the first and this one,
 * so Previous is a plain link (each list pages one way only: forwards, with this stack).
 * Cursors are base64url with one dot, so commas separate them safely.
 */
export interface PagePosition {
  cursor: string | undefined;
  back: string[];
}

export function pagePosition(params: Record<string, string | string[] | undefined>): PagePosition {
  const cursor = param(params, "cursor");
  const back = cursor ? (param(params, "back")?.split(",").filter(Boolean) ?? []) : [];
  return { cursor, back };
}

/** The query of the previous and the next page, each to be merged with the list's filters. */
export function neighbours(position: PagePosition, nextCursor: string | null) {
  const previous = position.cursor ? { cursor: position.back.at(-1), back: position.back.slice(0, -1).join(",") || undefined } : null;
  const next = nextCursor ? { cursor: nextCursor, back: position.cursor ? [...position.back, position.cursor].join(",") : undefined } : null;
  return { previous, next };
}

/** The first row's number on this page (1-based), given the page size. */
export function firstRow(position: PagePosition, pageSize: number): number {
  return (position.cursor ? position.back.length + 1 : 0) * pageSize + 1;
}
