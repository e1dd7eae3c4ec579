import { updateWebhookEndpoint } from "@mga/core/webhooks";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { endpointToView } from "./to-view";
import { endpointOutput, updateEndpointInput } from "./webhooks.types";

/** URL, event types, description, enabled or disabled. */
export const updateEndpoint = adminProcedure
  .input(updateEndpointInput)
  .output(endpointOutput)
  .mutation(async ({ ctx, input }) => {
    const { organization_id: _org, endpoint_id: _id, ...changes } = input;
    const endpoint = await auditedStaffChange(
      ctx,
      (tx) =>
        updateWebhookEndpoint(tx, {
          organizationId: input.organization_id,
          endpointId: input.endpoint_id,
          url: input.url,
          eventTypes: input.event_types,
          description: input.description,
          status: input.status,
          allowPrivateAddresses: ctx.allowPrivateWebhookAddresses === true,
        }),
      (updated) => ({
        action: "webhook_endpoint.update",
        target: updated.id,
        details: { organization_id: updated.organizationId, ...changes },
      }),
    );
    return { endpoint: endpointToView(endpoint) };
  });
