import { getIntegrationById, updateIntegration } from "@mga/core/partners/integrations";

import { integrationToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { aliasInput, integrationViewSchema } from "./integrations.types";

export const addAlias = adminProcedure
  .input(aliasInput)
  .output(integrationViewSchema)
  .mutation(async ({ ctx, input }) => {
    const current = await getIntegrationById(ctx.db, input.id);
    const integration = await auditedStaffChange(
      ctx,
      (tx) =>
        updateIntegration(tx, {
          organizationId: current.organizationId,
          slug: current.slug,
          addAliases: [input.alias],
        }),
      (changed) => ({ action: "integration.alias_add", target: changed.id, details: { alias: input.alias } }),
    );
    return integrationToOperatorView(integration);
  });
