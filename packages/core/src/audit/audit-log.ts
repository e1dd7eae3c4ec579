import type { Database } from "../db/database";
import { newId } from "../ids/new-id";

/** Appends to the audit trail (staff overrides, grants); shown to staff, never to partners. */
export async function recordAudit(db: Database, entry: { actor: string; action: string; target: string; details?: Record<string, unknown> }): Promise<void> {
  await db.prisma.auditLog.create({
    data: { id: newId("aud"), actor: entry.actor, action: entry.action, target: entry.target, details: (entry.details ?? {}) as object },
  });
}
