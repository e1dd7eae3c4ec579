import { z } from "zod";

import { EVENT_TYPES, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ENDPOINT_STATUSES } from "@mga/core/webhooks";

import { staffCursor, staffId, staffLimit } from "../staff.types";

/** Webhook endpoints and their deliveries, as the console configures and shows them. */
export const webhookEndpointSchema = z.strictObject({
  id: z.string(),
  organization_id: z.string(),
  integration: z.string().nullable(),
  url: z.string(),
  event_types: z.array(z.enum(EVENT_TYPES)),
  description: z.string().nullable(),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
  disabled_reason: z.string().nullable(),
  failing_since: z.iso.datetime().nullable(),
  previous_secret_expires_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

const urlInput = z.string().trim().min(1).max(2048);
const eventTypesInput = z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length);
const descriptionInput = z.string().trim().max(200);

export const organizationInput = z.strictObject({ organization_id: staffId });
export const endpointInput = z.strictObject({ organization_id: staffId, endpoint_id: staffId });

export const createEndpointInput = z.strictObject({
  organization_id: staffId,
  url: urlInput,
  event_types: eventTypesInput,
  integration: z.string().trim().min(1).max(64).nullable().optional(),
  description: descriptionInput.nullable().optional(),
});

export const updateEndpointInput = endpointInput.extend({
  url: urlInput.optional(),
  event_types: eventTypesInput.optional(),
  description: descriptionInput.nullable().optional(),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES).optional(),
});

/** The signing secret is in this response only (creation, roll). */
export const endpointWithSecretOutput = z.strictObject({ endpoint: webhookEndpointSchema, secret: z.string() });
export const endpointOutput = z.strictObject({ endpoint: webhookEndpointSchema });
export const listEndpointsOutput = z.strictObject({
  endpoints: z.array(webhookEndpointSchema),
  event_types: z.array(z.enum(EVENT_TYPES)),
});

export const webhookDeliverySchema = z.strictObject({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.int().min(0),
  last_status_code: z.int().nullable(),
  last_latency_ms: z.int().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.iso.datetime().nullable(),
  next_attempt_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});

export const listDeliveriesInput = endpointInput.extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  limit: staffLimit(25),
  cursor: staffCursor,
});
export const listDeliveriesOutput = z.strictObject({
  deliveries: z.array(webhookDeliverySchema),
  next_cursor: z.string().nullable(),
});
export const redeliverInput = z.strictObject({ organization_id: staffId, delivery_id: staffId });
export const okOutput = z.strictObject({ ok: z.literal(true) });
export const sendTestOutput = z.strictObject({ delivery_id: z.string() });
