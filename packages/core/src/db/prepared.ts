import type pg from "pg";

/**
 * A fixed statement that each connection plans once, as a named prepared statement, instead of
 * at every run. For the statements an answer runs one by one at low traffic (its conversation's
 * start, its messages, its frames), planning cost about as much as the work: preparing them took
 * half a millisecond off a streamed answer's first frame (docs/architecture.md, "Streams").
 * Only for a text that never varies: pg refuses one name given two texts, and a prepared
 * statement lives as long as its connection. Returns what `sql.query` takes for the values.
 */
export function prepared(name: string, text: string): (values: unknown[]) => pg.QueryConfig {
  return (values) => ({ name, text, values });
}
