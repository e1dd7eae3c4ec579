import { withTransaction } from "../../db/transaction";
import type { ResolvedIntegration } from "../integrations/integrations";
import { getPartnerUser } from "../users/get-user";
import type { PartnerUserRecord } from "../users/partner-user";
import type { OperationDeps } from "./operation-deps";

/**
 * A lifecycle request and what it answers, in one transaction: the user (with the operation
 * in their summary) as the request left them. Read after the commit, the worker could already
 * have moved the operation on (processing, even completed), and the 202 would describe that.
 */
export async function acceptOperationRequest(
  deps: OperationDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
  request: (deps: OperationDeps) => Promise<string>,
): Promise<{ operationId: string; user: PartnerUserRecord }> {
  return withTransaction(deps.db, async (tx) => {
    const operationId = await request({ ...deps, db: tx });
    return { operationId, user: await getPartnerUser(tx, integration, externalUserId) };
  });
}
