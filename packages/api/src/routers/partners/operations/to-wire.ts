import type { OperationRecord } from "@mga/core/partners/operations";
import type { OperationSummary } from "@mga/core/partners/users";

export function operationSummaryToWire(op: OperationSummary) {
  return {
    operation_id: op.id,
    type: op.type,
    status: op.status,
    error_code: op.errorCode,
    updated_at: op.updatedAt.toISOString(),
  };
}

export function operationToWire(op: OperationRecord) {
  return {
    operation_id: op.id,
    type: op.type,
    status: op.status,
    error_code: op.errorCode,
    user: { integration: op.integration, external_user_id: op.externalUserId },
    created_at: op.createdAt.toISOString(),
    updated_at: op.updatedAt.toISOString(),
    completed_at: op.completedAt?.toISOString() ?? null,
  };
}
