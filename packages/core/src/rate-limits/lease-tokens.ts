import type { Database } from "../db/database";
import { windowEndsInMsSql, windowSql } from "./window-sql";

/**
 * One lease: `slice` tokens of the key's budget in the current window, all or none, in one
 * atomic statement. The upsert's conflict arm locks the window's row and adds the slice only
 * if the total stays within the limit, so whatever the number of instances and however their
 * leases interleave, the tokens leased in a window never add up past the limit. The window
 * is computed by PostgreSQL's clock, the one all instances share. When refused, `seenTotal`
 * is the row as the statement's snapshot saw it (possibly a little stale): the caller sizes
 * its next, smaller attempt from it.
 */
const LEASE_SQL = `
WITH w AS (${windowSql("$4")}),
lease AS (
  INSERT INTO rate_limit_counters AS c (api_key_id, window_start, count)
  SELECT $1, w.start, $2::int FROM w WHERE $2::int <= $3::int
  ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = c.count + EXCLUDED.count
  WHERE c.count + EXCLUDED.count <= $3::int
  RETURNING count
)
SELECT (SELECT count FROM lease) AS "leasedTotal",
       (SELECT c.count FROM rate_limit_counters c WHERE c.api_key_id = $1 AND c.window_start = w.start) AS "seenTotal",
       extract(epoch FROM w.start)::float8 AS "windowStart",
       ${windowEndsInMsSql("$4")} AS "endsInMs"
FROM w`;

export interface LeaseResult {
  /** `slice` when leased, 0 when the window's budget could not cover it. */
  granted: number;
  /** Tokens leased in this window by all instances, as best known. */
  leasedTotal: number;
  /** The window, as seconds since the epoch of its start. */
  windowStart: number;
  /** Milliseconds from the statement's start to the window's end. */
  endsInMs: number;
}

export async function leaseTokens(
  db: Database,
  input: { keyId: string; slice: number; limit: number; windowSeconds: number },
): Promise<LeaseResult> {
  const { rows } = await db.sql.query<{
    leasedTotal: number | null;
    seenTotal: number | null;
    windowStart: number;
    endsInMs: number;
  }>(LEASE_SQL, [input.keyId, input.slice, input.limit, input.windowSeconds]);
  const row = rows[0];
  if (!row) throw new Error("the lease statement returned no row");
  return {
    granted: row.leasedTotal === null ? 0 : input.slice,
    leasedTotal: row.leasedTotal ?? row.seenTotal ?? 0,
    windowStart: row.windowStart,
    endsInMs: row.endsInMs,
  };
}
