import { deleteWebhookEndpoint } from "@mga/core/webhooks";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { endpointInput, okOutput } from "./webhooks.types";

export const deleteEndpoint = adminProcedure
  .input(endpointInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await deleteWebhookEndpoint(ctx.db, input.organization_id, input.endpoint_id);
    await auditStaffAction(ctx, "webhook_endpoint.delete", input.endpoint_id, { organization_id: input.organization_id });
    return { ok: true as const };
  });
