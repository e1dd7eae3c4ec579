import { AppError } from "@mga/core/errors";
import { getIntegrationById, type IntegrationRecord } from "@mga/core/partners/integrations";

import type { ApiContext } from "../../../context";

/**
 * The integration, which must have this alias: acting on a name it does not have would
 * otherwise succeed (and be audited) doing nothing, or touch another integration's alias.
 */
export async function integrationWithAlias(ctx: ApiContext, id: string, alias: string): Promise<IntegrationRecord> {
  const integration = await getIntegrationById(ctx.db, id);
  if (!integration.aliases.some((own) => own.slug === alias))
    throw new AppError("not_found", `alias ${alias} is not an alias of ${integration.slug}`);
  return integration;
}
