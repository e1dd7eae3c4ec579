import { rollWebhookSecret } from "@mga/core/webhooks";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { endpointToView } from "./to-view";
import { endpointInput, endpointWithSecretOutput } from "./webhooks.types";

/** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
export const rollSecret = adminProcedure
  .input(endpointInput)
  .output(endpointWithSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { endpoint, secret } = await rollWebhookSecret(ctx.db, input.organization_id, input.endpoint_id);
    await auditStaffAction(ctx, "webhook_endpoint.roll_secret", endpoint.id, { organization_id: endpoint.organizationId });
    return { endpoint: endpointToView(endpoint), secret };
  });
