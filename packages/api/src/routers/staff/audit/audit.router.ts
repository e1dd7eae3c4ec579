import { router } from "../../../trpc";
import { listStaffAudit } from "./list-audit";

/** The audit log, read only. */
export const staffAuditRouter = router({ list: listStaffAudit });
