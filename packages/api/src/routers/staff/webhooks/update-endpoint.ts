import { updateWebhookEndpoint } from "@mga/core/webhooks";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { endpointToView } from "./to-view";
import { endpointOutput, updateEndpointInput } from "./webhooks.types";

/** URL, event types, description, enabled or disabled. */
export const updateEndpoint = adminProcedure
  .input(updateEndpointInput)
  .output(endpointOutput)
  .mutation(async ({ ctx, input }) => {
    const endpoint = await updateWebhookEndpoint(ctx.db, {
      organizationId: input.organization_id,
      endpointId: input.endpoint_id,
      url: input.url,
      eventTypes: input.event_types,
      description: input.description,
      status: input.status,
      allowPrivateAddresses: ctx.allowPrivateWebhookAddresses === true,
    });
    const { organization_id: _org, endpoint_id: _id, ...changes } = input;
    await auditStaffAction(ctx, "webhook_endpoint.update", endpoint.id, { organization_id: endpoint.organizationId, ...changes });
    return { endpoint: endpointToView(endpoint) };
  });
