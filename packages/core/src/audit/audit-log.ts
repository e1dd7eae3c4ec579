import type pg from "pg";
import type { Database } from "../db/database";
import { newId } from "../ids/new-id";

/** Appends to the audit trail (staff overrides, grants); shown to staff, never to partners. */
export async function recordAudit(db: Database, entry: { actor: string; action: string; target: string; details?: Record<string, unknown> }): Promise<void> {
  await db.prisma.auditLog.create({
    data: { id: newId("aud"), actor: entry.actor, action: entry.action, target: entry.target, details: (entry.details ?? {}) as object },
  });
}

/** The same, inside a caller's transaction: the entry exists exactly when the change it records does. */
export async function recordAuditIn(client: pg.PoolClient, entry: { actor: string; action: string; target: string; details?: Record<string, unknown> }): Promise<void> {
  await client.query("INSERT INTO audit_log (id, actor, action, target, details, created_at) VALUES ($1, $2, $3, $4, $5, now())", [
    newId("aud"),
    entry.actor,
    entry.action,
    entry.target,
    JSON.stringify(entry.details ?? {}),
  ]);
}
