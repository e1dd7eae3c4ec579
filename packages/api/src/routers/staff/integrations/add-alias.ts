import { getIntegrationById, updateIntegration } from "@mga/core/partners/integrations";
import { integrationToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { aliasInput, integrationViewSchema } from "./integrations.types";

export const addAlias = adminProcedure
  .input(aliasInput)
  .output(integrationViewSchema)
  .mutation(async ({ ctx, input }) => {
    const current = await getIntegrationById(ctx.db, input.id);
    const integration = await updateIntegration(ctx.db, { organizationId: current.organizationId, slug: current.slug, addAliases: [input.alias] });
    await auditStaffAction(ctx, "integration.alias_add", integration.id, { alias: input.alias });
    return integrationToOperatorView(integration);
  });
