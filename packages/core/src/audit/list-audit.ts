import type { Database } from "../db/database";
import { decodeCursor, keysetDirection, keysetPage } from "../paging/cursor";
import { totalWhenAsked, type TotalOption } from "../paging/total";

const AUDIT_MATCHES =
  "($1::text IS NULL OR strpos(lower(a.actor), $1) > 0) AND ($2::text IS NULL OR starts_with(a.action, $2))";

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  target: string;
  details: unknown;
  createdAt: Date;
  /** The organization the target belongs to, when one does and still exists (staff accounts do not). */
  organization: { id: string; name: string } | null;
}

/**
 * The organization of an entry's target: organizations, integrations, keys and imports by
 * their id; partner users ("integration-slug/external id") by the integration id recorded in
 * the details, or for older entries by the slug when only one organization has it.
 */
const TARGET_ORGANIZATION = `LEFT JOIN LATERAL (
       SELECT o.id, o.name FROM organizations o WHERE o.id = (CASE
         WHEN a.target LIKE 'org\\_%' THEN a.target
         WHEN a.target LIKE 'int\\_%' THEN (SELECT organization_id FROM integrations WHERE id = a.target)
         WHEN a.target LIKE 'key\\_%' THEN (SELECT organization_id FROM api_keys WHERE id = a.target)
         WHEN a.target LIKE 'imp\\_%' THEN (SELECT i.organization_id FROM import_jobs j JOIN integrations i ON i.id = j.integration_id WHERE j.id = a.target)
         WHEN a.details->>'integration_id' IS NOT NULL THEN (SELECT organization_id FROM integrations WHERE id = a.details->>'integration_id')
         WHEN a.action LIKE 'partner\\_user.%' THEN (SELECT min(organization_id) FROM integrations WHERE slug = split_part(a.target, '/', 1) HAVING count(*) = 1)
       END)
     ) org ON true`;

/**
 * The audit trail, newest first; `actor` matches a part of the actor, any case ("@acme" for
 * everyone at acme), `action` a prefix ("partner_user." for all user actions). `total`, when
 * asked, counts every entry the filters match ("1–50 of 120").
 */
export async function listAudit(
  db: Database,
  input: {
    actor?: string | undefined;
    action?: string | undefined;
    limit: number;
    cursor?: string | undefined;
  } & TotalOption,
): Promise<{ entries: AuditEntry[]; nextCursor: string | null; previousCursor: string | null; total?: number }> {
  const filters = { actor: input.actor?.toLowerCase() ?? null, action: input.action ?? null };
  const from = decodeCursor(db.secrets, input.cursor, filters);
  const way = keysetDirection(from, "desc");
  const { rows } = await db.sql.query<{
    id: string;
    actor: string;
    action: string;
    target: string;
    details: unknown;
    created_at: Date;
    org_id: string | null;
    org_name: string | null;
  }>(
    `SELECT a.id, a.actor, a.action, a.target, a.details, a.created_at, org.id AS org_id, org.name AS org_name FROM audit_log a ${TARGET_ORGANIZATION}
     WHERE ${AUDIT_MATCHES}
       AND ($3::timestamptz IS NULL OR (a.created_at, a.id) ${way.comparison} ($3::timestamptz, $4::text))
     ORDER BY a.created_at ${way.order}, a.id ${way.order} LIMIT $5`,
    [filters.actor, filters.action, from?.createdAt ?? null, from?.id ?? "", input.limit + 1],
  );
  const counted = await totalWhenAsked(
    db,
    input,
    `SELECT count(*)::int AS total FROM audit_log a WHERE ${AUDIT_MATCHES}`,
    [filters.actor, filters.action],
  );
  const page = keysetPage(db.secrets, rows, input.limit, filters, from);
  return {
    ...counted,
    entries: page.rows.map((row) => ({
      id: row.id,
      actor: row.actor,
      action: row.action,
      target: row.target,
      details: row.details,
      createdAt: row.created_at,
      organization: row.org_id && row.org_name !== null ? { id: row.org_id, name: row.org_name } : null,
    })),
    nextCursor: page.nextCursor,
    previousCursor: page.previousCursor,
  };
}
