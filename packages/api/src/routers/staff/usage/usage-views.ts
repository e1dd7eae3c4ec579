import type { LoggedRequest } from "@mga/core/usage";

/** A logged request as the console gets it. */
export function loggedRequestToView(entry: LoggedRequest) {
  return {
    request_id: entry.requestId,
    at: entry.at.toISOString(),
    organization_id: entry.organizationId,
    key_id: entry.apiKeyId,
    method: entry.method,
    route: entry.route,
    route_group: entry.routeGroup,
    status: entry.status,
    latency_ms: entry.latencyMs,
    error_code: entry.errorCode,
    streamed: entry.streamed,
    resource_id: entry.resourceId,
  };
}
