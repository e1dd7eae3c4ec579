import { sendTestEvent as queueTestEvent } from "@mga/core/webhooks";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { endpointInput, sendTestOutput } from "./webhooks.types";

/** A `webhook.test` event to this endpoint only, delivered from the queue. */
export const sendTestEvent = adminProcedure
  .input(endpointInput)
  .output(sendTestOutput)
  .mutation(async ({ ctx, input }) => {
    const deliveryId = await auditedStaffChange(
      ctx,
      (tx) => queueTestEvent(tx, ctx.queue, { organizationId: input.organization_id, endpointId: input.endpoint_id }),
      (id) => ({
        action: "webhook_endpoint.send_test",
        target: input.endpoint_id,
        details: { organization_id: input.organization_id, delivery_id: id },
      }),
    );
    return { delivery_id: deliveryId };
  });
