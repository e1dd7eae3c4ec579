import { requestReprovision } from "@mga/core/partners/operations";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { integrationForStaff, operationDeps } from "../partner-directory";
import { operationStartedOutput, requestReprovisionInput } from "./partner-users.types";

export const requestStaffReprovision = adminProcedure
  .input(requestReprovisionInput)
  .output(operationStartedOutput)
  .mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const operationId = await requestReprovision(operationDeps(ctx), integration, input.external_user_id, { email: input.email, name: input.name });
    await auditStaffAction(ctx, "partner_user.reprovision", `${integration.slug}/${input.external_user_id}`, { operation_id: operationId, integration_id: integration.id });
    return { operation_id: operationId };
  });
