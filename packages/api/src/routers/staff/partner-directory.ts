import { getIntegrationById, type ResolvedIntegration } from "@mga/core/partners/integrations";

import type { ApiContext } from "../../context";

/** Staff name integrations by id; partner procedures of core take the canonical integration. */
export async function integrationForStaff(ctx: ApiContext, integrationId: string): Promise<ResolvedIntegration> {
  const integration = await getIntegrationById(ctx.db, integrationId);
  return { id: integration.id, organizationId: integration.organizationId, slug: integration.slug };
}

/** The ports and queue lifecycle operations need. */
export function operationDeps(ctx: ApiContext) {
  return { db: ctx.db, queue: ctx.queue, ...ctx.directory };
}
