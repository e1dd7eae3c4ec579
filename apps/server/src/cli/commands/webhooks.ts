import { AppError } from "@mga/core/errors";
import { JobQueue } from "@mga/core/jobs";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  EVENT_TYPES,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rollWebhookSecret,
  sendTestEvent,
  updateWebhookEndpoint,
  type WebhookEndpointRecord,
} from "@mga/core/webhooks";

import { loadEnv } from "../../env";
import { str, type Command } from "./command";

/** An organization's webhook endpoints (docs/decisions.md, "Events and webhooks"). */

const allowPrivateAddresses = () => loadEnv().WEBHOOK_ALLOW_PRIVATE_ADDRESSES === "1";
const eventList = (value: unknown) =>
  String(value)
    .split(",")
    .map((type) => type.trim())
    .filter(Boolean);

const view = (endpoint: WebhookEndpointRecord) => ({
  id: endpoint.id,
  url: endpoint.url,
  event_types: endpoint.eventTypes,
  integration: endpoint.integration,
  status: endpoint.status,
  disabled_reason: endpoint.disabledReason,
  previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
});

/** Redeliveries and test events go through the queue the running server's workers deliver from. */
async function withQueue<T>(url: string, work: (queue: JobQueue) => Promise<T>): Promise<T> {
  const queue = await JobQueue.start({ connectionString: url });
  try {
    return await work(queue);
  } finally {
    await queue.stop();
  }
}

export const webhooksCommands = {
  "webhook:create": {
    usage:
      "webhook:create --org <id> --url <https URL> --events <comma list> [--integration <slug>] [--description <text>]",
    summary: `Add a webhook endpoint; its signing secret is printed once. Events: ${EVENT_TYPES.join(", ")}.`,
    options: {
      org: { type: "string" },
      url: { type: "string" },
      events: { type: "string" },
      integration: { type: "string" },
      description: { type: "string" },
    },
    required: ["org", "url", "events"],
    note: "Store the signing secret now: it is shown only this once (roll it to get a new one).",
    async run({ db }, flags) {
      const { endpoint, secret } = await createWebhookEndpoint(db, {
        organizationId: str(flags, "org"),
        url: str(flags, "url"),
        eventTypes: eventList(flags.events),
        integration: (flags.integration as string | undefined) ?? null,
        description: (flags.description as string | undefined) ?? null,
        allowPrivateAddresses: allowPrivateAddresses(),
      });
      return { ...view(endpoint), secret };
    },
  },
  "webhook:list": {
    usage: "webhook:list --org <id>",
    summary: "List an organization's webhook endpoints (never their secrets), with why any was disabled.",
    options: { org: { type: "string" } },
    required: ["org"],
    async run({ db }, flags) {
      return { endpoints: (await listWebhookEndpoints(db, str(flags, "org"))).map(view) };
    },
  },
  "webhook:update": {
    usage:
      "webhook:update --org <id> --id <endpoint id> [--url <URL>] [--events <comma list>] [--status enabled|disabled]",
    summary: "Change an endpoint's URL or event types, or enable or disable it (enabling clears its failure streak).",
    options: {
      org: { type: "string" },
      id: { type: "string" },
      url: { type: "string" },
      events: { type: "string" },
      status: { type: "string" },
    },
    required: ["org", "id"],
    async run({ db }, flags) {
      const status = flags.status as string | undefined;
      if (status !== undefined && status !== "enabled" && status !== "disabled")
        throw new AppError("invalid_request", "--status: enabled or disabled");
      const endpoint = await updateWebhookEndpoint(db, {
        organizationId: str(flags, "org"),
        endpointId: str(flags, "id"),
        url: flags.url as string | undefined,
        eventTypes: flags.events === undefined ? undefined : eventList(flags.events),
        status,
        allowPrivateAddresses: allowPrivateAddresses(),
      });
      return view(endpoint);
    },
  },
  "webhook:roll-secret": {
    usage: "webhook:roll-secret --org <id> --id <endpoint id>",
    summary: "A new signing secret, printed once; the old one keeps signing beside it for 24 hours.",
    options: { org: { type: "string" }, id: { type: "string" } },
    required: ["org", "id"],
    note: "Store the new secret now; switch your receiver to it within 24 hours.",
    async run({ db }, flags) {
      const { endpoint, secret } = await rollWebhookSecret(db, str(flags, "org"), str(flags, "id"));
      return { ...view(endpoint), secret };
    },
  },
  "webhook:delete": {
    usage: "webhook:delete --org <id> --id <endpoint id>",
    summary: "Remove an endpoint and its deliveries.",
    options: { org: { type: "string" }, id: { type: "string" } },
    required: ["org", "id"],
    async run({ db }, flags) {
      await deleteWebhookEndpoint(db, str(flags, "org"), str(flags, "id"));
      return { id: str(flags, "id"), deleted: true };
    },
  },
  "webhook:deliveries": {
    usage: "webhook:deliveries --org <id> --id <endpoint id>",
    summary: "An endpoint's latest deliveries: status, status code, latency, attempts, next retry, last error.",
    options: { org: { type: "string" }, id: { type: "string" } },
    required: ["org", "id"],
    async run({ db }, flags) {
      const page = await listWebhookDeliveries(db, {
        organizationId: str(flags, "org"),
        endpointId: str(flags, "id"),
        limit: 50,
      });
      return { deliveries: page.deliveries };
    },
  },
  "webhook:redeliver": {
    usage: "webhook:redeliver --org <id> --delivery <delivery id>",
    summary: "Send a delivery again (same body and webhook-id); the running server's workers deliver it.",
    options: { org: { type: "string" }, delivery: { type: "string" } },
    required: ["org", "delivery"],
    async run({ db, url }, flags) {
      await withQueue(url, (queue) =>
        redeliverWebhook(db, queue, { organizationId: str(flags, "org"), deliveryId: str(flags, "delivery") }),
      );
      return { delivery_id: str(flags, "delivery"), queued: true };
    },
  },
  "webhook:test": {
    usage: "webhook:test --org <id> --id <endpoint id>",
    summary: "Send a webhook.test event to one endpoint; the running server's workers deliver it.",
    options: { org: { type: "string" }, id: { type: "string" } },
    required: ["org", "id"],
    async run({ db, url }, flags) {
      const deliveryId = await withQueue(url, (queue) =>
        sendTestEvent(db, queue, { organizationId: str(flags, "org"), endpointId: str(flags, "id") }),
      );
      return { delivery_id: deliveryId, queued: true };
    },
  },
} satisfies Record<string, Command>;
