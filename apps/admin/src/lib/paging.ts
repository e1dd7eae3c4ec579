import { param } from "./format";

/**
 * Where a paged table is, from its URL: `cursor` (the API's signed keyset cursor of this page,
 * absent on the first) and `page`, its number (for "26–50 of 60"). Previous is the API's
 * `previous_cursor`, a cursor that reads the rows before this page, so the URL stays the same
 * length however far staff page (it used to carry every earlier page's cursor).
 */
export interface PagePosition {
  cursor: string | undefined;
  page: number;
}

/** The largest page number a URL may claim (a hand-edited one must not make a huge "from"). */
const MAX_PAGE = 1_000_000;

export function pagePosition(params: Record<string, string | string[] | undefined>): PagePosition {
  const cursor = param(params, "cursor");
  const number = Number.parseInt(param(params, "page") ?? "", 10);
  return {
    cursor,
    page: cursor && Number.isInteger(number) && number >= 2 && number <= MAX_PAGE ? number : cursor ? 2 : 1,
  };
}

/**
 * The query of the previous and the next page, each to be merged with the list's filters.
 * Page 2's Previous is the first page itself (no cursor), so it shows new rows too.
 */
export function neighbours(position: PagePosition, nextCursor: string | null, previousCursor: string | null) {
  const previous =
    position.page <= 1 || (position.page > 2 && !previousCursor)
      ? null
      : position.page === 2
        ? { cursor: undefined, page: undefined }
        : { cursor: previousCursor ?? undefined, page: String(position.page - 1) };
  const next = nextCursor ? { cursor: nextCursor, page: String(position.page + 1) } : null;
  return { previous, next };
}

/** The first row's number on this page (1-based), given the page size. */
export function firstRow(position: PagePosition, pageSize: number): number {
  return (position.page - 1) * pageSize + 1;
}
