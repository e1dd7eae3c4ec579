import type { Database } from "../../db/database";
import type { OperationStatus, OperationType } from "./operation-values";

/** A lifecycle operation as callers read it (spec 2.10). */
export interface OperationRecord {
  id: string;
  type: OperationType;
  status: OperationStatus;
  errorCode: string | null;
  integration: string;
  externalUserId: string;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/** The operations matching `where` (over `o` the operation, `u` its user, `i` its integration). */
export async function selectOperations(db: Database, where: string, values: unknown[]): Promise<OperationRecord[]> {
  const { rows } = await db.sql.query<{
    id: string;
    type: OperationType;
    status: OperationStatus;
    error_code: string | null;
    slug: string;
    external_user_id: string;
    created_at: Date;
    updated_at: Date;
    completed_at: Date | null;
  }>(
    `SELECT o.id, o.type, o.status, o.error_code, i.slug, u.external_user_id, o.created_at, o.updated_at, o.completed_at
     FROM lifecycle_operations o JOIN partner_users u ON u.id = o.partner_user_id JOIN integrations i ON i.id = o.integration_id
     WHERE ${where}`,
    values,
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    status: row.status,
    errorCode: row.error_code,
    integration: row.slug,
    externalUserId: row.external_user_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  }));
}
