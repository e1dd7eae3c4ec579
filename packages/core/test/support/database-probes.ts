import type { Database } from "../../src/db/database";

/** A statement's SQL: given as text, or as a prepared statement's config (db/prepared.ts). */
export function statementText(query: string | { text: string }): string {
  return typeof query === "string" ? query : query.text;
}

/** Records the text of every statement run through `db` from now on (the handle itself is kept, so per-handle state stays attached). */
export function recordStatements(db: Database): string[] {
  const statements: string[] = [];
  const pool = db.sql;
  db.sql = {
    query: ((text: string | { text: string }, params?: unknown[]) => {
      statements.push(statementText(text));
      return pool.query(text as string, params);
    }) as Database["sql"]["query"],
  };
  return statements;
}

/** An integration's user counts by a full scan: what the maintained counters must equal. */
export async function fullUserCount(db: Database, integrationId: string) {
  const { rows } = await db.sql.query(
    `SELECT count(*) FILTER (WHERE status <> 'deleted')::int AS total, count(*) FILTER (WHERE status = 'active')::int AS active,
            count(*) FILTER (WHERE status = 'disabled')::int AS disabled, count(*) FILTER (WHERE status = 'deleted')::int AS deleted,
            count(*) FILTER (WHERE status <> 'deleted' AND provisioning_status = 'pending')::int AS pending,
            count(*) FILTER (WHERE status <> 'deleted' AND provisioning_status = 'failed')::int AS failed
     FROM partner_users WHERE integration_id = $1`,
    [integrationId],
  );
  return rows[0];
}
