import { recordAudit } from "../../audit/audit-log";
import { AppError } from "../../errors/app-error";
import { checkedEmail } from "../../shared/email";
import type { ResolvedIntegration } from "../integrations/integrations";
import { claimEmailInIntegration } from "../users/one-user-per-email";
import type { OperationDeps } from "./operation-deps";
import { insertOperation, withLockedUser } from "./operation-request";
import { enqueueVerification } from "./verification-link";

/**
 * POST profile-changes (spec 3.3). A partner-created identity that only this partner's user is
 * linked to is updated directly (queued → processing → completed). An account that is
 * pre-existing, or shared with another partner's user (site-account-ownership.ts): an email
 * change waits for verification at the new address (verification_pending; the old profile
 * stays in force). A name-only change to a pre-existing account needs an audited staff
 * override (409 here); to a shared partner-created one it applies to this partner's record only.
 */
export async function requestProfileChange(
  deps: OperationDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
  input: { email?: string | undefined; name?: string | undefined; override?: { actor: string; reason: string } },
): Promise<string> {
  const email = input.email === undefined ? undefined : checkedEmail(input.email);
  return withLockedUser(deps, integration, externalUserId, async (tx, user) => {
    if (user.status === "deleted") throw new AppError("identity_conflict", `user ${externalUserId} is deleted`);
    if (user.provisioning_status !== "active")
      throw new AppError(
        "identity_conflict",
        `user ${externalUserId} is not provisioned yet; retry once provisioning has completed`,
      );
    const emailChanges = email !== undefined && email !== user.email;
    const nameChanges = input.name !== undefined && input.name !== user.name;
    if (!emailChanges && !nameChanges)
      throw new AppError("invalid_request", "email, name: nothing to change (both equal the current profile)");
    const partnerCreated = user.identity_origin === "partner_created";
    if (!input.override && !partnerCreated && !emailChanges) {
      throw new AppError(
        "identity_conflict",
        "a name change to a pre-existing account needs an audited staff override",
      );
    }
    if (emailChanges) await claimEmailInIntegration(tx, { integrationId: integration.id, email, externalUserId });
    await tx.sql.query(
      "UPDATE lifecycle_operations SET status = 'cancelled', updated_at = now() WHERE partner_user_id = $1 AND type = 'profile_change' AND status IN ('queued', 'verification_pending')",
      [user.id],
    );
    const values = {
      integrationId: integration.id,
      userId: user.id,
      type: "profile_change" as const,
      email: emailChanges ? email : null,
      name: nameChanges ? input.name : null,
    };
    // The worker checks ownership again under the account's lock: an account shared meanwhile
    // turns a direct email change into one that needs verification.
    const direct = input.override !== undefined || !emailChanges || (partnerCreated && !user.shared);
    if (direct) {
      await tx.sql.query("UPDATE partner_users SET profile_sync_status = 'pending', updated_at = now() WHERE id = $1", [
        user.id,
      ]);
      const id = await insertOperation(tx, {
        ...values,
        status: "queued",
        note: input.override ? `override by ${input.override.actor}: ${input.override.reason}` : null,
        authorizedBy: input.override ? "staff_override" : null,
      });
      if (input.override) {
        await recordAudit(tx, {
          actor: input.override.actor,
          action: "partner_user.profile_override",
          target: `${integration.slug}/${externalUserId}`,
          // Old and new values, for staff reading the log (the audit log is never on /v1).
          details: {
            operation_id: id,
            integration_id: integration.id,
            reason: input.override.reason,
            fields: [...(emailChanges ? ["email"] : []), ...(nameChanges ? ["name"] : [])],
            ...(emailChanges ? { email: { from: user.email, to: email } } : {}),
            ...(nameChanges ? { name: { from: user.name, to: input.name } } : {}),
          },
        });
      }
      return { result: id, enqueue: id };
    }
    const id = await insertOperation(tx, { ...values, status: "verification_pending", verification: true });
    await enqueueVerification(deps, tx, id);
    return { result: id };
  });
}
