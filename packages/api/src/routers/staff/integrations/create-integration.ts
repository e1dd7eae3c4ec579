import { createIntegration } from "@mga/core/partners/integrations";

import { integrationToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { createIntegrationInput, integrationViewSchema } from "./integrations.types";

export const createStaffIntegration = adminProcedure
  .input(createIntegrationInput)
  .output(integrationViewSchema)
  .mutation(async ({ ctx, input }) => {
    const integration = await auditedStaffChange(
      ctx,
      (tx) =>
        createIntegration(tx, { organizationId: input.organization_id, slug: input.slug, aliases: input.aliases }),
      (created) => ({
        action: "integration.create",
        target: created.id,
        details: { slug: created.slug, aliases: input.aliases },
      }),
    );
    return integrationToOperatorView(integration);
  });
