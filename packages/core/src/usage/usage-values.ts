/** The status classes usage is counted by (CHECK constraint on usage_daily.status_class). */
export const USAGE_STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
export type UsageStatusClass = (typeof USAGE_STATUS_CLASSES)[number];

/** Usage rows are kept at least this long (docs/decisions.md, "Usage and the request log"). */
export const MIN_USAGE_RETENTION_DAYS = 400;
/** The request log's default retention (REQUEST_LOG_RETENTION_DAYS). */
export const DEFAULT_REQUEST_LOG_RETENTION_DAYS = 7;

/** The class of an HTTP status (a final response is never 1xx, so anything below 300 is 2xx). */
export function statusClassOf(status: number): UsageStatusClass {
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  if (status >= 300) return "3xx";
  return "2xx";
}

const DAY_MS = 86_400_000;
/** The last day computed, kept: every request of a day asks for the same one (no string built per request). */
let lastDay = { start: 0, label: "1970-01-01" };

/** The UTC day of an instant, as YYYY-MM-DD (usage is bucketed by UTC day on every instance). */
export function utcDay(at: Date): string {
  const ms = at.getTime();
  if (ms >= lastDay.start && ms < lastDay.start + DAY_MS) return lastDay.label;
  const start = Math.floor(ms / DAY_MS) * DAY_MS;
  const label = new Date(start).toISOString().slice(0, 10);
  lastDay = { start, label };
  return label;
}
