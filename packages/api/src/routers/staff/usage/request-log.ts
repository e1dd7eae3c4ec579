import { AppError } from "@mga/core/errors";
import { getApiKey } from "@mga/core/keys";
import { getOrganization } from "@mga/core/orgs";
import { listRequestLog, loggedRoutes } from "@mga/core/usage";

import { staffProcedure } from "../../../trpc";
import { loggedRequestToView } from "./usage-views";
import { requestLogInput, requestLogOutput } from "./usage.types";

/** An organization's (or one of its keys') logged requests, newest first, filtered by status, route and time. */
export const requestLog = staffProcedure
  .input(requestLogInput)
  .output(requestLogOutput)
  .query(async ({ ctx, input }) => {
    const organization = await getOrganization(ctx.db, input.organization_id);
    // A key of another organization is a 404, not an empty log.
    if (input.key_id) {
      const key = await getApiKey(ctx.db, input.key_id);
      if (key.organizationId !== organization.id) throw new AppError("not_found", `key ${input.key_id} not found`);
    }
    const page = await listRequestLog(ctx.db, {
      organizationId: organization.id,
      apiKeyId: input.key_id,
      status: input.status,
      route: input.route,
      since: input.since ? new Date(input.since) : undefined,
      until: input.until ? new Date(input.until) : undefined,
      limit: input.limit,
      cursor: input.cursor,
    });
    return {
      requests: page.requests.map(loggedRequestToView),
      next_cursor: page.nextCursor,
      routes: await loggedRoutes(ctx.db, organization.id),
    };
  });
