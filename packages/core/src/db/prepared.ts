import type pg from "pg";

/** Names given so far: pg refuses one name with two texts, on a connection, at run time. */
const names = new Set<string>();

/**
 * A fixed statement that each connection plans once, as a named prepared statement, instead of
 * at every run. For the statements an answer runs one by one at low traffic (its conversation's
 * start, its messages, its frames), planning cost about as much as the work (docs/architecture.md,
 * "Database access"). Only for a text that never varies; a prepared statement lives as long as
 * its connection. A name given twice is refused here, when the module loads, not by PostgreSQL
 * in the middle of a request. Returns what `sql.query` takes, given the values.
 */
export function prepared(name: string, text: string): (values: unknown[]) => pg.QueryConfig {
  if (names.has(name)) throw new Error(`the prepared statement name "${name}" is taken`);
  names.add(name);
  return (values) => ({ name, text, values });
}
