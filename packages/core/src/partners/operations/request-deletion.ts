import { AppError } from "../../errors/app-error";
import { recordUserEvent } from "../../webhooks/partner-events";
import type { ResolvedIntegration } from "../integrations/integrations";
import type { OperationDeps } from "./operation-deps";
import { insertOperation, withLockedUser } from "./operation-request";

/** POST deletions: access is cut now (status disabled, access_version moves); the worker deletes. */
export async function requestDeletion(
  deps: OperationDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
  input: { note?: string | undefined },
): Promise<string> {
  return withLockedUser(deps, integration, externalUserId, async (tx, user) => {
    if (user.status === "deleted") throw new AppError("identity_conflict", `user ${externalUserId} is already deleted`);
    const running = await tx.sql.query<{ id: string }>(
      "SELECT id FROM lifecycle_operations WHERE partner_user_id = $1 AND type = 'deletion' AND status IN ('queued', 'processing')",
      [user.id],
    );
    // A deletion already under way is the answer to a second request.
    if (running.rows[0]) return { result: running.rows[0].id };
    await tx.sql.query(
      "UPDATE lifecycle_operations SET status = 'cancelled', updated_at = now() WHERE partner_user_id = $1 AND type = 'profile_change' AND status IN ('queued', 'verification_pending')",
      [user.id],
    );
    await tx.sql.query(
      "UPDATE partner_users SET status = 'disabled', access_version = access_version + 1, updated_at = now() WHERE id = $1",
      [user.id],
    );
    if (user.status !== "disabled") await recordUserEvent(tx, "user.disabled", user.id);
    const id = await insertOperation(tx, {
      integrationId: integration.id,
      userId: user.id,
      type: "deletion",
      status: "queued",
      note: input.note,
    });
    return { result: id, enqueue: id };
  });
}
