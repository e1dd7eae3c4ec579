import { setAliasGrant as setCoreAliasGrant } from "@mga/core/partners/integrations";

import { integrationToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { integrationWithAlias } from "./integration-with-alias";
import { integrationViewSchema, setAliasGrantInput } from "./integrations.types";

/** An alias resolves only for the keys granted it (spec section 5 item 4). */
export const setAliasGrant = adminProcedure
  .input(setAliasGrantInput)
  .output(integrationViewSchema)
  .mutation(async ({ ctx, input }) => {
    const current = await integrationWithAlias(ctx, input.id, input.alias);
    const integration = await auditedStaffChange(
      ctx,
      (tx) =>
        setCoreAliasGrant(tx, {
          organizationId: current.organizationId,
          alias: input.alias,
          apiKeyId: input.key_id,
          granted: input.granted,
        }),
      (changed) => ({
        action: input.granted ? "integration.alias_grant" : "integration.alias_revoke",
        target: changed.id,
        details: { alias: input.alias, key_id: input.key_id },
      }),
    );
    return integrationToOperatorView(integration);
  });
