import { sendTestEvent as queueTestEvent } from "@mga/core/webhooks";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { endpointInput, sendTestOutput } from "./webhooks.types";

/** A `webhook.test` event to this endpoint only, delivered from the queue. */
export const sendTestEvent = adminProcedure
  .input(endpointInput)
  .output(sendTestOutput)
  .mutation(async ({ ctx, input }) => {
    const deliveryId = await queueTestEvent(ctx.db, ctx.queue, { organizationId: input.organization_id, endpointId: input.endpoint_id });
    await auditStaffAction(ctx, "webhook_endpoint.send_test", input.endpoint_id, { organization_id: input.organization_id, delivery_id: deliveryId });
    return { delivery_id: deliveryId };
  });
