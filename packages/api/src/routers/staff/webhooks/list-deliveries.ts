import { getWebhookEndpoint, listWebhookDeliveries } from "@mga/core/webhooks";

import { staffProcedure } from "../../../trpc";
import { deliveryToView } from "./to-view";
import { listDeliveriesInput, listDeliveriesOutput } from "./webhooks.types";

/** An endpoint's deliveries, newest first: status code, latency, attempts, next retry. */
export const listDeliveries = staffProcedure
  .input(listDeliveriesInput)
  .output(listDeliveriesOutput)
  .query(async ({ ctx, input }) => {
    await getWebhookEndpoint(ctx.db, input.organization_id, input.endpoint_id);
    const page = await listWebhookDeliveries(ctx.db, {
      organizationId: input.organization_id,
      endpointId: input.endpoint_id,
      status: input.status,
      limit: input.limit,
      cursor: input.cursor,
    });
    return { deliveries: page.deliveries.map(deliveryToView), next_cursor: page.nextCursor };
  });
