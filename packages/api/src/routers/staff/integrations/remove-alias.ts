import { updateIntegration } from "@mga/core/partners/integrations";

import { integrationToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { integrationWithAlias } from "./integration-with-alias";
import { aliasInput, integrationViewSchema } from "./integrations.types";

export const removeAlias = adminProcedure
  .input(aliasInput)
  .output(integrationViewSchema)
  .mutation(async ({ ctx, input }) => {
    const current = await integrationWithAlias(ctx, input.id, input.alias);
    const integration = await auditedStaffChange(
      ctx,
      (tx) =>
        updateIntegration(tx, {
          organizationId: current.organizationId,
          slug: current.slug,
          removeAliases: [input.alias],
        }),
      (changed) => ({ action: "integration.alias_remove", target: changed.id, details: { alias: input.alias } }),
    );
    return integrationToOperatorView(integration);
  });
