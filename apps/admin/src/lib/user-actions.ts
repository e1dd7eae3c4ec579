import type { PartnerUserRow } from "./api-types";

/** The lifecycle actions the user page can offer. */
export type UserAction = "disable" | "reactivate" | "delete" | "reprovision" | "overrideProfile";

/** Operation statuses in which the operation still has work to do (spec 2.10). */
const UNFINISHED = new Set(["queued", "verification_pending", "processing"]);

/**
 * What makes sense for the user as they are now (spec 3.1-3.3), so the page never offers an
 * action the API would refuse or that would fight one under way: nothing while a deletion or
 * reprovision is running, only Reprovision once deleted, Reactivate only when disabled, and a
 * profile override only once setup has finished. `note` says why something is missing.
 */
export function availableUserActions(
  user: Pick<PartnerUserRow, "status" | "provisioning_status" | "lifecycle_operation">,
): { actions: UserAction[]; note?: string } {
  const running =
    user.lifecycle_operation && UNFINISHED.has(user.lifecycle_operation.status)
      ? user.lifecycle_operation.type
      : undefined;
  if (running === "deletion")
    return { actions: [], note: "A deletion is under way: no other action can be taken until it completes." };
  if (running === "reprovision")
    return { actions: [], note: "A reprovision is under way: other actions return once it completes." };
  if (user.status === "deleted") return { actions: ["reprovision"] };
  const actions: UserAction[] = [user.status === "active" ? "disable" : "reactivate", "delete"];
  if (user.provisioning_status !== "active")
    return { actions, note: "The profile can be overridden once the user's setup has finished." };
  return { actions: [...actions, "overrideProfile"] };
}
