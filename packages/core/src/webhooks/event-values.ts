/**
 * The event catalogue (docs/decisions.md, "Events and webhooks"). Each type reports one change
 * of a partner resource; the event carries the resource as the API returns it.
 */
export const EVENT_TYPES = [
  "operation.completed",
  "operation.failed",
  "import.completed",
  "user.disabled",
  "user.reactivated",
  "user.deleted",
  "user.provisioning_failed",
  "user.launch_eligibility_changed",
  "key.expiring_soon",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent only by "send test event" to one endpoint; never recorded, never in GET /v1/events. */
export const TEST_EVENT_TYPE = "webhook.test";

export const WEBHOOK_ENDPOINT_STATUSES = ["enabled", "disabled"] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
