import { createWebhookEndpoint } from "@mga/core/webhooks";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { endpointToView } from "./to-view";
import { createEndpointInput, endpointWithSecretOutput } from "./webhooks.types";

/** The signing secret is shown in this response only; the service keeps it sealed. */
export const createEndpoint = adminProcedure
  .input(createEndpointInput)
  .output(endpointWithSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { endpoint, secret } = await auditedStaffChange(
      ctx,
      (tx) =>
        createWebhookEndpoint(tx, {
          organizationId: input.organization_id,
          url: input.url,
          eventTypes: input.event_types,
          integration: input.integration ?? null,
          description: input.description ?? null,
          allowPrivateAddresses: ctx.allowPrivateWebhookAddresses === true,
        }),
      ({ endpoint: created }) => ({
        action: "webhook_endpoint.create",
        target: created.id,
        details: { organization_id: created.organizationId, url: created.url, event_types: created.eventTypes },
      }),
    );
    return { endpoint: endpointToView(endpoint), secret };
  });
