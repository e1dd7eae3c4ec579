import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import type { ResolvedIntegration } from "../integrations/integrations";
import { expireStaleVerifications } from "./expire-stale-verifications";
import { selectOperations, type OperationRecord } from "./operation-record";

export async function getOperation(
  db: Database,
  integration: ResolvedIntegration,
  operationId: string,
): Promise<OperationRecord> {
  await expireStaleVerifications(db, operationId);
  const op = await findOperation(db, "o.id = $1 AND o.integration_id = $2", [operationId, integration.id]);
  if (!op) throw new AppError("not_found", `operation ${operationId} not found`);
  return op;
}

export async function getOperationById(db: Database, operationId: string): Promise<OperationRecord> {
  const op = await findOperation(db, "o.id = $1", [operationId]);
  if (!op) throw new AppError("not_found", `operation ${operationId} not found`);
  return op;
}

async function findOperation(db: Database, where: string, values: unknown[]): Promise<OperationRecord | undefined> {
  return (await selectOperations(db, where, values))[0];
}
