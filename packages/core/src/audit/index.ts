// @mga/core/audit: what the rest of the service may use of this area; everything else is internal.
export { recordAudit } from "./audit-log";
export { type AuditActor, type AuditRecord, withAudit } from "./audited-change";
export { listAudit } from "./list-audit";
