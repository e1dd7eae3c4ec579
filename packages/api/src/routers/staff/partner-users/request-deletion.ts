import { requestDeletion } from "@mga/core/partners/operations";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { integrationForStaff, operationDeps } from "../partner-directory";
import { operationStartedOutput, requestDeletionInput } from "./partner-users.types";

export const requestStaffDeletion = adminProcedure
  .input(requestDeletionInput)
  .output(operationStartedOutput)
  .mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const operationId = await auditedStaffChange(
      ctx,
      (tx) =>
        requestDeletion({ ...operationDeps(ctx), db: tx }, integration, input.external_user_id, { note: input.note }),
      (id) => ({
        action: "partner_user.delete",
        target: `${integration.slug}/${input.external_user_id}`,
        details: { operation_id: id, integration_id: integration.id },
      }),
    );
    return { operation_id: operationId };
  });
