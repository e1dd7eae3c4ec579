import { AppError } from "../../errors/app-error";
import { checkedEmail } from "../../shared/email";
import type { ResolvedIntegration } from "../integrations/integrations";
import { claimEmailInIntegration } from "../users/one-user-per-email";
import type { OperationDeps } from "./operation-deps";
import { insertOperation, withLockedUser } from "./operation-request";

/** POST reprovision: only a deleted user; a new account generation with new identities. */
export async function requestReprovision(
  deps: OperationDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
  input: { email: string; name?: string | undefined },
): Promise<string> {
  const email = checkedEmail(input.email);
  return withLockedUser(deps, integration, externalUserId, async (tx, user) => {
    if (user.status !== "deleted")
      throw new AppError(
        "identity_conflict",
        `user ${externalUserId} is not deleted; only a deleted user can be reprovisioned`,
      );
    await claimEmailInIntegration(tx, { integrationId: integration.id, email, externalUserId });
    await tx.sql.query(
      `UPDATE partner_users SET account_generation = account_generation + 1, access_version = access_version + 1, status = 'active',
         provisioning_status = 'pending', mapping_status = 'pending', identity_origin = NULL, site_account_id = NULL, chat_identity_id = NULL,
         email = $2, name = $3, team_id = NULL, profile_sync_status = 'applied', wordpress_sync_status = 'applied', updated_at = now()
       WHERE id = $1`,
      [user.id, email, input.name ?? null],
    );
    const id = await insertOperation(tx, {
      integrationId: integration.id,
      userId: user.id,
      type: "reprovision",
      status: "queued",
    });
    return { result: id, enqueue: id };
  });
}
