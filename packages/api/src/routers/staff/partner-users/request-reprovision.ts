import { requestReprovision } from "@mga/core/partners/operations";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { integrationForStaff, operationDeps } from "../partner-directory";
import { operationStartedOutput, requestReprovisionInput } from "./partner-users.types";

export const requestStaffReprovision = adminProcedure
  .input(requestReprovisionInput)
  .output(operationStartedOutput)
  .mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const operationId = await auditedStaffChange(
      ctx,
      (tx) =>
        requestReprovision({ ...operationDeps(ctx), db: tx }, integration, input.external_user_id, {
          email: input.email,
          name: input.name,
        }),
      (id) => ({
        action: "partner_user.reprovision",
        target: `${integration.slug}/${input.external_user_id}`,
        details: { operation_id: id, integration_id: integration.id },
      }),
    );
    return { operation_id: operationId };
  });
