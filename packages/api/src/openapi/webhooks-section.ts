import type { OpenAPIObject } from "trpc-to-openapi";

import { EVENT_TYPES, TEST_EVENT_TYPE } from "@mga/core/webhooks";

import { EVENT_SCHEMAS } from "../routers/events/events.types";
import { EXAMPLE_EVENT } from "./operation-examples";

const HEADERS = [
  { name: "webhook-id", description: "The event's id: the same on every retry and redelivery (deduplicate on it)." },
  {
    name: "webhook-timestamp",
    description:
      "When this attempt was signed, in Unix seconds; reject a timestamp far from your clock (the libraries allow 5 minutes).",
  },
  {
    name: "webhook-signature",
    description:
      "`v1,<base64 HMAC-SHA256 of \"{webhook-id}.{webhook-timestamp}.{body}\">` with the endpoint's secret, space-separated; two during the 24 hours after a secret roll. Verify with any Standard Webhooks library, or the SDK's `webhooks.verify`.",
  },
];

/** The security scheme of the webhooks section: the Standard Webhooks signature header. */
export const WEBHOOK_SIGNATURE_SCHEME = "webhookSignature";
export const WEBHOOK_SIGNATURE_SECURITY = {
  type: "apiKey",
  in: "header",
  name: "webhook-signature",
  description:
    "Sent by this service on every webhook delivery (Standard Webhooks): verify it with the endpoint's signing secret, never an API key.",
} as const;

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type of the catalogue (and the test
 * event), each a POST to the partner's endpoint with the event's schema as its body and the
 * Standard Webhooks headers (docs/decisions.md, "Events and webhooks").
 */
export function addWebhooks(document: OpenAPIObject): void {
  const ids = Object.fromEntries(
    Object.entries(EVENT_SCHEMAS).map(([type, schema]) => [
      type,
      (schema.meta() as { id: string; description: string }) ?? { id: "", description: "" },
    ]),
  );
  const entries = [...EVENT_TYPES, TEST_EVENT_TYPE].map((type) => {
    const meta =
      type === TEST_EVENT_TYPE
        ? { id: "EventWebhookTest", description: 'Sent by the console\'s "send test event".' }
        : ids[type];
    return [
      type,
      {
        post: {
          summary: type,
          description: `${meta?.description ?? ""}\n\nAnswer 2xx within 5 seconds. Anything else (a timeout, a redirect, another status) is retried with exponential back-off for about 24 hours; an endpoint failing for 24 hours is disabled.`,
          operationId: `webhook_${type.replace(/\W/g, "_")}`,
          // What the partner's endpoint checks: this service's signature with the endpoint's secret.
          security: [{ [WEBHOOK_SIGNATURE_SCHEME]: [] }],
          parameters: HEADERS.map((header) => ({
            name: header.name,
            in: "header",
            required: true,
            description: header.description,
            schema: { type: "string" },
          })),
          requestBody: {
            required: true,
            content: {
              "application/json": {
                // The test event's entry names the union every delivery belongs to (the SDK's WebhookEvent).
                schema: {
                  $ref: `#/components/schemas/${type === TEST_EVENT_TYPE ? "WebhookPayload" : (meta?.id ?? "")}`,
                },
                ...(type === EXAMPLE_EVENT.type ? { example: EXAMPLE_EVENT } : {}),
              },
            },
          },
          responses: { "200": { description: "Received (any 2xx status)." } },
        },
      },
    ];
  });
  (document as OpenAPIObject & { webhooks?: Record<string, unknown> }).webhooks = Object.fromEntries(entries);
}
