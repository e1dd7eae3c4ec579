import { requestDeletion } from "@mga/core/partners/operations";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { integrationForStaff, operationDeps } from "../partner-directory";
import { operationStartedOutput, requestDeletionInput } from "./partner-users.types";

export const requestStaffDeletion = adminProcedure
  .input(requestDeletionInput)
  .output(operationStartedOutput)
  .mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const operationId = await requestDeletion(operationDeps(ctx), integration, input.external_user_id, { note: input.note });
    await auditStaffAction(ctx, "partner_user.delete", `${integration.slug}/${input.external_user_id}`, { operation_id: operationId, integration_id: integration.id });
    return { operation_id: operationId };
  });
