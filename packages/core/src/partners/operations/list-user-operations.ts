import type { Database } from "../../db/database";
import type { ResolvedIntegration } from "../integrations/integrations";
import { selectOperations, type OperationRecord } from "./operation-record";

/** A user's lifecycle operations, newest first (the console's user page). */
export async function listUserOperations(
  db: Database,
  integration: ResolvedIntegration,
  externalUserId: string,
  limit = 50,
): Promise<OperationRecord[]> {
  return selectOperations(
    db,
    "o.integration_id = $1 AND u.external_user_id = $2 ORDER BY o.created_at DESC, o.id DESC LIMIT $3",
    [integration.id, externalUserId, limit],
  );
}
