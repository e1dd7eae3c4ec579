import type { Database } from "../db/database";
import { newId } from "../ids/new-id";

/**
 * Appends to the audit trail (staff overrides, grants); shown to staff, never to partners.
 * Called with a transaction's `tx`, the entry exists exactly when the change it records does.
 */
export async function recordAudit(
  db: Database,
  entry: { actor: string; action: string; target: string; details?: Record<string, unknown> },
): Promise<void> {
  await db.sql.query(
    "INSERT INTO audit_log (id, actor, action, target, details, created_at) VALUES ($1, $2, $3, $4, $5, now())",
    [newId("aud"), entry.actor, entry.action, entry.target, JSON.stringify(entry.details ?? {})],
  );
}
