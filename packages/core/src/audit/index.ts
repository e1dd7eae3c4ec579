// @mga/core/audit: what the rest of the service may use of this area; everything else is internal.
export { recordAudit } from "./audit-log";
export { listAudit } from "./list-audit";
