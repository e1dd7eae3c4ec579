import { firstRow, neighbours, pagePosition } from "@/lib/paging";
import { describe, expect, it } from "vitest";

/** The console's pager keeps one cursor and a page number in the URL, however far staff page (issue 24 item 16). */
describe("page position and neighbours", () => {
  it("the first page has no Previous; its Next carries the next cursor and page 2", () => {
    const first = pagePosition({});
    expect(first).toEqual({ cursor: undefined, page: 1 });
    expect(neighbours(first, "next-1", null)).toEqual({ previous: null, next: { cursor: "next-1", page: "2" } });
    expect(firstRow(first, 25)).toBe(1);
  });

  it("page 2's Previous is the first page; page 3's is the API's backward cursor, never a stack", () => {
    const second = pagePosition({ cursor: "c2", page: "2" });
    expect(neighbours(second, "c3", "b2").previous).toEqual({ cursor: undefined, page: undefined });
    const third = pagePosition({ cursor: "c3", page: "3" });
    expect(firstRow(third, 25)).toBe(51);
    expect(neighbours(third, null, "b3")).toEqual({ previous: { cursor: "b3", page: "2" }, next: null });
    // An old link with a `back` stack is read as its cursor alone.
    expect(pagePosition({ cursor: "c9", back: "a,b,c" })).toEqual({ cursor: "c9", page: 2 });
  });

  it("a page number without a cursor, or out of range, is not believed", () => {
    expect(pagePosition({ page: "7" })).toEqual({ cursor: undefined, page: 1 });
    expect(pagePosition({ cursor: "c", page: "-3" }).page).toBe(2);
    expect(pagePosition({ cursor: "c", page: "99999999999" }).page).toBe(2);
  });
});
