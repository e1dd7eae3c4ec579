import { updateIntegration } from "@mga/core/partners/integrations";
import { integrationToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { integrationWithAlias } from "./integration-with-alias";
import { aliasInput, integrationViewSchema } from "./integrations.types";

export const removeAlias = adminProcedure
  .input(aliasInput)
  .output(integrationViewSchema)
  .mutation(async ({ ctx, input }) => {
    const current = await integrationWithAlias(ctx, input.id, input.alias);
    const integration = await updateIntegration(ctx.db, { organizationId: current.organizationId, slug: current.slug, removeAliases: [input.alias] });
    await auditStaffAction(ctx, "integration.alias_remove", integration.id, { alias: input.alias });
    return integrationToOperatorView(integration);
  });
