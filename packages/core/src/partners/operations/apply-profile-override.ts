import { AppError } from "../../errors/app-error";
import type { ResolvedIntegration } from "../integrations/integrations";
import { getOperationById } from "./get-operation";
import type { OperationDeps } from "./operation-deps";
import type { OperationRecord } from "./operation-record";
import { requestProfileChange } from "./request-profile-change";

/** An override's reason is read later in the audit log: "x" or "ok" tells nobody why. */
export const MIN_OVERRIDE_REASON_LENGTH = 10;

/**
 * An audited staff override of a user's profile (spec 3.3): applies a name-only change, or
 * an email change without verification, to a pre-existing account. Recorded in the audit
 * log with who did it and why; the partner sees only the operation.
 */
export async function applyProfileOverride(
  deps: OperationDeps,
  integration: ResolvedIntegration,
  externalUserId: string,
  input: { email?: string | undefined; name?: string | undefined; actor: string; reason: string },
): Promise<OperationRecord> {
  const reason = input.reason.trim();
  if (reason.length < MIN_OVERRIDE_REASON_LENGTH) {
    throw new AppError(
      "invalid_request",
      `reason: an override needs a reason of at least ${MIN_OVERRIDE_REASON_LENGTH} characters for the audit log`,
    );
  }
  const id = await requestProfileChange(deps, integration, externalUserId, {
    email: input.email,
    name: input.name,
    override: { actor: input.actor, reason },
  });
  // Audited in the operation's own transaction (requestProfileChange), with the fields that change.
  return getOperationById(deps.db, id);
}
