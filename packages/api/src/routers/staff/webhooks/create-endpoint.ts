import { createWebhookEndpoint } from "@mga/core/webhooks";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { endpointToView } from "./to-view";
import { createEndpointInput, endpointWithSecretOutput } from "./webhooks.types";

/** The signing secret is shown in this response only; the service keeps it sealed. */
export const createEndpoint = adminProcedure
  .input(createEndpointInput)
  .output(endpointWithSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { endpoint, secret } = await createWebhookEndpoint(ctx.db, {
      organizationId: input.organization_id,
      url: input.url,
      eventTypes: input.event_types,
      integration: input.integration ?? null,
      description: input.description ?? null,
      allowPrivateAddresses: ctx.allowPrivateWebhookAddresses === true,
    });
    await auditStaffAction(ctx, "webhook_endpoint.create", endpoint.id, { organization_id: endpoint.organizationId, url: endpoint.url, event_types: endpoint.eventTypes });
    return { endpoint: endpointToView(endpoint), secret };
  });
