import { redeliverWebhook } from "@mga/core/webhooks";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { okOutput, redeliverInput } from "./webhooks.types";

/** Sends the delivery again from the queue (same body and webhook-id), never from this request. */
export const redeliver = adminProcedure
  .input(redeliverInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await redeliverWebhook(ctx.db, ctx.queue, { organizationId: input.organization_id, deliveryId: input.delivery_id });
    await auditStaffAction(ctx, "webhook_delivery.redeliver", input.delivery_id, { organization_id: input.organization_id });
    return { ok: true as const };
  });
