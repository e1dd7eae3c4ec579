// @mga/core/webhooks: what the rest of the service may use of this area; everything else is internal.
export { EVENT_TYPES, TEST_EVENT_TYPE, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ENDPOINT_STATUSES } from "./event-values";
export type { EventType, WebhookDeliveryStatus, WebhookEndpointStatus } from "./event-values";
export { recordEvent } from "./record-event";
export { announceExpiringKeys, KEY_EXPIRY_NOTICE_DAYS } from "./announce-expiring-keys";
export type { EventSubject, ImportEventRecord, KeyEventRecord, RecordEventInput } from "./record-event";
export { EVENT_RETENTION_DAYS, listEvents, sweepOldEvents } from "./list-events";
export type { StoredEvent } from "./list-events";
export {
  checkEndpointUrl,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rollWebhookSecret,
  SECRET_ROLL_OVERLAP_HOURS,
  updateWebhookEndpoint,
} from "./endpoints";
export type { WebhookEndpointRecord } from "./endpoints";
export { listWebhookDeliveries, redeliverWebhook, sendTestEvent } from "./deliveries";
export type { WebhookDeliveryRecord } from "./deliveries";
export { dispatchEvents } from "./dispatch-events";
export { isPublicAddress } from "./address-rules";
export { DISABLE_AFTER_MS, RETRY_DELAYS_MS } from "./webhook-options";
export type { WebhookOptions } from "./webhook-options";
