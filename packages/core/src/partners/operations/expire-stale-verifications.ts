import type { Database } from "../../db/database";

/** Verification links not used in time expire (every operation by the periodic sweep; one operation when it is read). */
export async function expireStaleVerifications(db: Database, operationId?: string): Promise<number> {
  const { rowCount } = await db.sql.query(
    `UPDATE lifecycle_operations SET status = 'expired', verification_token_hash = NULL, updated_at = now()
     WHERE status = 'verification_pending' AND verification_expires_at < now() AND ($1::text IS NULL OR id = $1)`,
    [operationId ?? null],
  );
  return rowCount ?? 0;
}
