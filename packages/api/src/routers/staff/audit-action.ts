import { recordAudit } from "@mga/core/audit";
import { type StaffMember } from "@mga/core/staff";
import type { ApiContext } from "../../context";

/** Every staff mutation ends here: who did what to which target, shown in the console's audit log. */
export function auditStaffAction(ctx: ApiContext & { staff: StaffMember }, action: string, target: string, details: Record<string, unknown> = {}): Promise<void> {
  return recordAudit(ctx.db, { actor: ctx.staff.email, action, target, details });
}
