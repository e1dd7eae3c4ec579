/** One page of a list route: its items and the cursor of the next page (null at the end). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Every item of a list, page after page: each page asks with the previous page's `next_cursor`
 * and the same filters (spec section 4), until `next_cursor` is null. Pages are fetched as the
 * loop reaches them, so breaking out early asks for no more.
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
