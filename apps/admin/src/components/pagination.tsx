import { queryString } from "@/lib/format";
import { firstRow, neighbours, type PagePosition } from "@/lib/paging";
import Link from "next/link";

/**
 * The one pager of every paged table: "1–25 of 30", then Previous and Next. Both links keep
 * the table's filters (a cursor is only valid with the filters that produced it); a direction
 * with no page is shown but not a link.
 */
export function Pagination({
  path,
  filters,
  position,
  pageSize,
  shown,
  total,
  nextCursor,
  previousCursor,
}: {
  path: string;
  filters: Record<string, string | undefined>;
  position: PagePosition;
  pageSize: number;
  shown: number;
  total: number;
  nextCursor: string | null;
  /** The API's `previous_cursor`: the rows before this page. */
  previousCursor: string | null;
}) {
  const { previous, next } = neighbours(position, nextCursor, previousCursor);
  const first = firstRow(position, pageSize);
  const range =
    shown === 0
      ? "0 of 0"
      : `${first.toLocaleString("en-US")}–${(first + shown - 1).toLocaleString("en-US")} of ${total.toLocaleString("en-US")}`;
  const link = (target: { cursor?: string | undefined; page?: string | undefined } | null, label: string) =>
    target ? (
      <Link href={`${path}${queryString({ ...filters, ...target })}`}>{label}</Link>
    ) : (
      <span className="pager-off" aria-disabled="true">
        {label}
      </span>
    );
  return (
    <nav className="pager" aria-label="Pages">
      <span className="pager-range">{range}</span>
      {link(previous, "Previous")}
      {link(next, "Next")}
    </nav>
  );
}
