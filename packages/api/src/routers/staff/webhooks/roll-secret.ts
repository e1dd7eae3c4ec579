import { rollWebhookSecret } from "@mga/core/webhooks";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { endpointToView } from "./to-view";
import { endpointInput, endpointWithSecretOutput } from "./webhooks.types";

/** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
export const rollSecret = adminProcedure
  .input(endpointInput)
  .output(endpointWithSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { endpoint, secret } = await auditedStaffChange(
      ctx,
      (tx) => rollWebhookSecret(tx, input.organization_id, input.endpoint_id),
      ({ endpoint: rolled }) => ({
        action: "webhook_endpoint.roll_secret",
        target: rolled.id,
        details: { organization_id: rolled.organizationId },
      }),
    );
    return { endpoint: endpointToView(endpoint), secret };
  });
