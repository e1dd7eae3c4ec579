import { usageOverview as overview, usageRange } from "@mga/core/usage";

import { staffProcedure } from "../../../trpc";
import { usageOverviewInput, usageOverviewOutput } from "./usage.types";

/** Every organization with its usage over the last `days` days, the busiest first. */
export const usageOverview = staffProcedure
  .input(usageOverviewInput)
  .output(usageOverviewOutput)
  .query(async ({ ctx, input }) => {
    const range = usageRange({ days: input.days });
    const organizations = await overview(ctx.db, range);
    return {
      ...range,
      organizations: organizations.map((org) => ({
        id: org.organizationId,
        name: org.name,
        requests: org.requests,
        answers: org.answers,
        tokens_used: org.tokensUsed,
        upstream_errors: org.upstreamErrors,
        rate_limited: org.rateLimited,
      })),
    };
  });
