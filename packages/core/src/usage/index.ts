// @mga/core/usage: what the rest of the service may use of this area; everything else is internal.
export type { FinishedRequest } from "./finished-request";
export {
  droppedLogRows,
  flushUsage,
  MAX_PENDING_LOG_ROWS,
  recordFinishedRequest,
  UNMATCHED_ROUTE,
  USAGE_FLUSH_MS,
} from "./usage-buffer";
export { MAX_USAGE_RANGE_DAYS, readUsage, usageOverview, usageRange } from "./usage-report";
export type {
  IntegrationUsage,
  IntegrationUsageDay,
  OrganizationUsage,
  UsageCounts,
  UsageDay,
  UsageRange,
  UsageReport,
} from "./usage-report";
export { findLoggedRequest, listRequestLog, loggedRoutes } from "./request-log";
export type { LoggedRequest, RequestLogFilters, RequestLogPage } from "./request-log";
export { sweepUsage } from "./sweep-usage";
export {
  DEFAULT_REQUEST_LOG_RETENTION_DAYS,
  MIN_USAGE_RETENTION_DAYS,
  statusClassOf,
  USAGE_STATUS_CLASSES,
} from "./usage-values";
export type { UsageStatusClass } from "./usage-values";
