import type { UsageReport } from "@/lib/api-types";
import { stringify } from "csv-stringify/sync";

/**
 * A usage report as CSV: one row per day, a column per count, route group and status class
 * (csv-stringify quotes what needs quoting). Cells that a spreadsheet would run as a formula
 * (starting with = + - @) get a leading apostrophe: route groups are ours, but the rule costs nothing.
 */
export function usageCsv(report: UsageReport): string {
  const groups = [...new Set(report.days.flatMap((day) => Object.keys(day.by_route_group)))].sort();
  const classes = Object.keys(report.totals.by_status_class);
  const header = [
    "date",
    "requests",
    "streamed_answers",
    "json_answers",
    "tokens_used",
    "upstream_errors",
    "rate_limited",
    ...classes.map((name) => `status_${name}`),
    ...groups.map((group) => `route_group_${group}`),
  ];
  const rows = report.days.map((day) => [
    day.date,
    day.requests,
    day.streamed_answers,
    day.json_answers,
    day.tokens_used,
    day.upstream_errors,
    day.rate_limited,
    ...classes.map((name) => day.by_status_class[name as keyof typeof day.by_status_class]),
    ...groups.map((group) => day.by_route_group[group] ?? 0),
  ]);
  return stringify([
    header.map(defuse),
    ...rows.map((row) => row.map((cell) => (typeof cell === "string" ? defuse(cell) : cell))),
  ]);
}

const defuse = (cell: string) => (/^[=+\-@]/.test(cell) ? `'${cell}` : cell);

/** The CSV as a download. */
export function csvResponse(csv: string, filename: string): Response {
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}
