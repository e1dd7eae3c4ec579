import { getOrganization } from "@mga/core/orgs";
import { readUsage, usageRange } from "@mga/core/usage";

import { staffProcedure } from "../../../trpc";
import { usageToWire } from "../../usage/usage.types";
import { organizationUsageInput, staffUsageOutput } from "./usage.types";

/** An organization's usage over its last `days` days (the console's usage section and CSV). */
export const organizationUsage = staffProcedure
  .input(organizationUsageInput)
  .output(staffUsageOutput)
  .query(async ({ ctx, input }) => {
    // 404 for an organization that does not exist, rather than a report of zeros.
    const organization = await getOrganization(ctx.db, input.organization_id);
    return usageToWire(
      await readUsage(ctx.db, { ...usageRange({ days: input.days }), organizationId: organization.id }),
    );
  });
