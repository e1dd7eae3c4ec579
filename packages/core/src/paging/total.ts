import type { Database } from "../db/database";

/**
 * Whether a paged list also counts every row its filters match (`total`: the console's "1–25 of
 * 30"). Every list counts it only when its caller asks: the count is a second query, and the
 * partner API and the CLI, which show no total, never ask.
 */
export interface TotalOption {
  withTotal?: boolean | undefined;
}

/** `{ total }` from `countSql` (one row, an int column `total`) when asked, else `{}`: spread into the list's result. */
export async function totalWhenAsked(
  db: Database,
  input: TotalOption,
  countSql: string,
  params: unknown[],
): Promise<{ total?: number }> {
  if (!input.withTotal) return {};
  const { rows } = await db.sql.query<{ total: number }>(countSql, params);
  return { total: rows[0]?.total ?? 0 };
}
