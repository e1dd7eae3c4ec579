import { withAudit, type AuditRecord } from "@mga/core/audit";
import type { Database } from "@mga/core/db";
import { type StaffMember } from "@mga/core/staff";

import type { ApiContext } from "../../context";

/**
 * Every staff mutation goes through here: the change and its audit row (who did what to which
 * target, shown in the console's audit log) commit together in core (withAudit), never the
 * change without its row. `change` must make its writes through the `tx` it is given.
 */
export function auditedStaffChange<T>(
  ctx: ApiContext & { staff: StaffMember },
  change: (tx: Database) => Promise<T>,
  describe: (result: T) => AuditRecord,
): Promise<T> {
  return withAudit(ctx.db, ctx.staff.email, change, describe);
}
