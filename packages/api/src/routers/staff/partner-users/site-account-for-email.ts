import { findSiteAccountForEmail } from "@mga/core/partners/users";

import { staffProcedure } from "../../../trpc";
import { integrationForStaff, operationDeps } from "../partner-directory";
import { siteAccountForEmailInput, siteAccountForEmailOutput } from "./partner-users.types";

/**
 * Whether an address already has a site account a user given it would be linked to (shown
 * before a reprovision or an email override is confirmed): counts only, never who uses it.
 */
export const siteAccountForEmail = staffProcedure
  .input(siteAccountForEmailInput)
  .output(siteAccountForEmailOutput)
  .query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const found = await findSiteAccountForEmail(operationDeps(ctx), integration, input.email);
    return {
      site_account_exists: found.exists,
      other_integrations: found.otherIntegrations,
      hosted_product: found.hostedProduct,
    };
  });
