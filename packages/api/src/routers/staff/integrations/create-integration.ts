import { createIntegration } from "@mga/core/partners/integrations";
import { integrationToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { createIntegrationInput, integrationViewSchema } from "./integrations.types";

export const createStaffIntegration = adminProcedure
  .input(createIntegrationInput)
  .output(integrationViewSchema)
  .mutation(async ({ ctx, input }) => {
    const integration = await createIntegration(ctx.db, { organizationId: input.organization_id, slug: input.slug, aliases: input.aliases });
    await auditStaffAction(ctx, "integration.create", integration.id, { slug: integration.slug, aliases: input.aliases });
    return integrationToOperatorView(integration);
  });
