import type { Database } from "../db/database";
import { decodeCursor, keysetDirection, keysetPage } from "../paging/cursor";

const AUDIT_MATCHES = "($1::text IS NULL OR strpos(lower(actor), $1) > 0) AND ($2::text IS NULL OR starts_with(action, $2))";

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  target: string;
  details: unknown;
  createdAt: Date;
}

/**
 * The audit trail, newest first; `actor` matches a part of the actor, any case ("@acme" for
 * everyone at acme), `action` a prefix ("partner_user." for all user actions). `total` counts
 * every entry the filters match ("1–50 of 120").
 */
export async function listAudit(
  db: Database,
  input: { actor?: string | undefined; action?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null; previousCursor: string | null; total: number }> {
  const filters = { actor: input.actor?.toLowerCase() ?? null, action: input.action ?? null };
  const from = decodeCursor(db.secrets, input.cursor, filters);
  const way = keysetDirection(from, "desc");
  const { rows } = await db.sql.query<{ id: string; actor: string; action: string; target: string; details: unknown; created_at: Date }>(
    `SELECT id, actor, action, target, details, created_at FROM audit_log
     WHERE ${AUDIT_MATCHES}
       AND ($3::timestamptz IS NULL OR (created_at, id) ${way.comparison} ($3::timestamptz, $4::text))
     ORDER BY created_at ${way.order}, id ${way.order} LIMIT $5`,
    [filters.actor, filters.action, from?.createdAt ?? null, from?.id ?? "", input.limit + 1],
  );
  const counted = await db.sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM audit_log WHERE ${AUDIT_MATCHES}`, [filters.actor, filters.action]);
  const page = keysetPage(db.secrets, rows, input.limit, filters, from);
  return {
    total: counted.rows[0]?.total ?? 0,
    entries: page.rows.map((row) => ({ id: row.id, actor: row.actor, action: row.action, target: row.target, details: row.details, createdAt: row.created_at })),
    nextCursor: page.nextCursor,
    previousCursor: page.previousCursor,
  };
}
