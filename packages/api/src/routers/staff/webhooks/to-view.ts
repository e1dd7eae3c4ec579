import type { WebhookDeliveryRecord, WebhookEndpointRecord } from "@mga/core/webhooks";

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function endpointToView(endpoint: WebhookEndpointRecord) {
  return {
    id: endpoint.id,
    organization_id: endpoint.organizationId,
    integration: endpoint.integration,
    url: endpoint.url,
    event_types: endpoint.eventTypes,
    description: endpoint.description,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    failing_since: iso(endpoint.failingSince),
    previous_secret_expires_at: iso(endpoint.previousSecretExpiresAt),
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export function deliveryToView(delivery: WebhookDeliveryRecord) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_latency_ms: delivery.lastLatencyMs,
    last_error: delivery.lastError,
    last_attempt_at: iso(delivery.lastAttemptAt),
    next_attempt_at: iso(delivery.nextAttemptAt),
    created_at: delivery.createdAt.toISOString(),
  };
}
