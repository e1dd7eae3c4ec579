import { countIntegrationUsers, listIntegrations } from "@mga/core/partners/integrations";

import { integrationToOperatorView } from "../../../operator/operator-views";
import { staffProcedure } from "../../../trpc";
import { listIntegrationsInput, listIntegrationsOutput } from "./integrations.types";

export const listStaffIntegrations = staffProcedure
  .input(listIntegrationsInput)
  .output(listIntegrationsOutput)
  .query(async ({ ctx, input }) => {
    const integrations = await listIntegrations(ctx.db, input.organization_id);
    const users = await countIntegrationUsers(
      ctx.db,
      integrations.map((integration) => integration.id),
    );
    return integrations.map((integration) => ({
      ...integrationToOperatorView(integration),
      users: users.get(integration.id) ?? 0,
    }));
  });
