import { deleteWebhookEndpoint } from "@mga/core/webhooks";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { endpointInput, okOutput } from "./webhooks.types";

export const deleteEndpoint = adminProcedure
  .input(endpointInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await auditedStaffChange(
      ctx,
      (tx) => deleteWebhookEndpoint(tx, input.organization_id, input.endpoint_id),
      () => ({
        action: "webhook_endpoint.delete",
        target: input.endpoint_id,
        details: { organization_id: input.organization_id },
      }),
    );
    return { ok: true as const };
  });
