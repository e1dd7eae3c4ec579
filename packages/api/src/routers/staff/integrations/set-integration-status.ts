import { getIntegrationById, updateIntegration } from "@mga/core/partners/integrations";

import { integrationToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { integrationViewSchema, setIntegrationStatusInput } from "./integrations.types";

/** Disabling refuses every partner request naming it (403) until it is enabled again. */
export const setIntegrationStatus = adminProcedure
  .input(setIntegrationStatusInput)
  .output(integrationViewSchema)
  .mutation(async ({ ctx, input }) => {
    const current = await getIntegrationById(ctx.db, input.id);
    const integration = await auditedStaffChange(
      ctx,
      (tx) =>
        updateIntegration(tx, { organizationId: current.organizationId, slug: current.slug, status: input.status }),
      (changed) => ({
        action: `integration.${input.status === "disabled" ? "disable" : "enable"}`,
        target: changed.id,
        details: { slug: changed.slug },
      }),
    );
    return integrationToOperatorView(integration);
  });
