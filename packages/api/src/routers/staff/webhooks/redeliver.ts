import { redeliverWebhook } from "@mga/core/webhooks";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { okOutput, redeliverInput } from "./webhooks.types";

/** Sends the delivery again from the queue (same body and webhook-id), never from this request. */
export const redeliver = adminProcedure
  .input(redeliverInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await auditedStaffChange(
      ctx,
      (tx) => redeliverWebhook(tx, ctx.queue, { organizationId: input.organization_id, deliveryId: input.delivery_id }),
      () => ({
        action: "webhook_delivery.redeliver",
        target: input.delivery_id,
        details: { organization_id: input.organization_id },
      }),
    );
    return { ok: true as const };
  });
