import { z } from "zod";

import { EVENT_TYPES, TEST_EVENT_TYPE } from "@mga/core/webhooks";

import { requestIdField } from "../../schemas/common";
import { cursorSchema, integrationSlugSchema } from "../../schemas/partner-ids";
import { importJobSchema } from "../partners/imports/imports.types";
import { operationSchema } from "../partners/operations/operations.types";
import { partnerUserSchema } from "../partners/users/users.types";

/**
 * The event catalogue (docs/decisions.md, "Events and webhooks"): what GET /v1/events lists and
 * what a webhook's body is. Each event's `data` holds the resource exactly as the API returns it
 * (the same schemas, so never names, emails, passwords or audit notes).
 */

const eventIdSchema = z.string().min(1).max(64).meta({
  description:
    "Unique id of the event; also the `webhook-id` header of its deliveries (the receiver's idempotency key).",
});

const envelope = <T extends string, D extends z.ZodType>(type: T, data: D, id: string, description: string) =>
  z
    .strictObject({
      id: eventIdSchema,
      type: z.literal(type),
      created_at: z.iso.datetime(),
      integration: integrationSlugSchema
        .nullable()
        .meta({ description: "The integration the resource belongs to; null for organization-wide events." }),
      data,
    })
    .meta({ id, description });

const userData = z.strictObject({ user: partnerUserSchema });
const operationData = z.strictObject({ operation: operationSchema, user: partnerUserSchema });

/** An import as events carry it: the import's summary counts; its per-row results come from GET the import. */
export const importEventSchema = importJobSchema.omit({ results: true }).meta({ id: "ImportJobSummary" });

/** A key about to expire (never its secret). */
export const keyEventSchema = z
  .strictObject({
    id: z.string().min(1),
    name: z.string().min(1),
    last_four: z.string().min(1),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: "ExpiringApiKey" });

export const EVENT_SCHEMAS = {
  "operation.completed": envelope(
    "operation.completed",
    operationData,
    "EventOperationCompleted",
    "A lifecycle operation (profile change, deletion, reprovision) completed.",
  ),
  "operation.failed": envelope(
    "operation.failed",
    operationData,
    "EventOperationFailed",
    "A lifecycle operation failed; `operation.error_code` says why.",
  ),
  "import.completed": envelope(
    "import.completed",
    z.strictObject({ import: importEventSchema }),
    "EventImportCompleted",
    "A bulk import finished, with its summary counts.",
  ),
  "user.disabled": envelope(
    "user.disabled",
    userData,
    "EventUserDisabled",
    "A user was disabled (PATCH status, or a deletion request).",
  ),
  "user.reactivated": envelope(
    "user.reactivated",
    userData,
    "EventUserReactivated",
    "A disabled user was made active again.",
  ),
  "user.deleted": envelope("user.deleted", userData, "EventUserDeleted", "A user's deletion completed."),
  "user.provisioning_failed": envelope(
    "user.provisioning_failed",
    userData,
    "EventUserProvisioningFailed",
    "A user's provisioning gave up after its retries.",
  ),
  "user.launch_eligibility_changed": envelope(
    "user.launch_eligibility_changed",
    userData,
    "EventUserLaunchEligibilityChanged",
    "`user.launch_eligibility.can_launch` changed; `blocking_reasons` says why a user cannot launch.",
  ),
  "key.expiring_soon": envelope(
    "key.expiring_soon",
    z.strictObject({ key: keyEventSchema }),
    "EventKeyExpiringSoon",
    "An API key of the organization expires soon.",
  ),
} as const satisfies Record<(typeof EVENT_TYPES)[number], z.ZodType>;

export const testEventSchema = envelope(
  TEST_EVENT_TYPE,
  z.strictObject({ endpoint_id: z.string().min(1) }),
  "EventWebhookTest",
  'Sent by the console\'s "send test event" to one endpoint; never listed.',
);

const E = EVENT_SCHEMAS;
const catalogue = [
  E["operation.completed"],
  E["operation.failed"],
  E["import.completed"],
  E["user.disabled"],
  E["user.reactivated"],
  E["user.deleted"],
  E["user.provisioning_failed"],
  E["user.launch_eligibility_changed"],
  E["key.expiring_soon"],
] as const;

/** One event as GET /v1/events lists it. */
export const eventSchema = z
  .discriminatedUnion("type", catalogue)
  .meta({ id: "Event", description: "An event of the catalogue, discriminated by `type`." });

/** The body of a webhook delivery: an event, or the test event. */
export const webhookPayloadSchema = z.discriminatedUnion("type", [...catalogue, testEventSchema]).meta({
  id: "WebhookPayload",
  description:
    "The JSON body of a webhook delivery, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature).",
});

export const listEventsInput = z.strictObject({
  type: z.enum(EVENT_TYPES).optional().meta({ description: "Only events of this type." }),
  integration: integrationSlugSchema.optional().meta({ description: "Only events of this integration." }),
  created_after: z.iso.datetime().optional().meta({ description: "Only events created at or after this time." }),
  created_before: z.iso.datetime().optional().meta({ description: "Only events created before this time." }),
  limit: z.int().min(1).max(100).default(25),
  cursor: cursorSchema.optional(),
});

export const listEventsOutput = z
  .strictObject({ request_id: requestIdField, events: z.array(eventSchema), next_cursor: z.string().nullable() })
  .meta({ id: "ListEventsResponse" });
