/**
 * The fixed window every rate-limit statement counts in, by PostgreSQL's clock (the one all
 * instances share), for a window of `seconds` (a parameter placeholder such as `$4`).
 */

/** A `w` row: the window's `start` and the statement's time `at`. */
export function windowSql(seconds: string): string {
  return `SELECT to_timestamp(floor(extract(epoch FROM now()) / ${seconds}::int) * ${seconds}::int) AS start, now() AS at`;
}

/** Milliseconds from the statement's start to the end of window `w`. */
export function windowEndsInMsSql(seconds: string): string {
  return `ceil(extract(epoch FROM (w.start + make_interval(secs => ${seconds}::int) - w.at)) * 1000)::int`;
}
