import { getApiKey } from "@mga/core/keys";
import { readUsage, usageRange } from "@mga/core/usage";

import { staffProcedure } from "../../../trpc";
import { usageToWire } from "../../usage/usage.types";
import { keyUsageInput, staffUsageOutput } from "./usage.types";

/** One key's usage over its last `days` days (the key page's usage section and CSV). */
export const keyUsage = staffProcedure
  .input(keyUsageInput)
  .output(staffUsageOutput)
  .query(async ({ ctx, input }) => {
    const key = await getApiKey(ctx.db, input.key_id);
    return usageToWire(
      await readUsage(ctx.db, {
        ...usageRange({ days: input.days }),
        organizationId: key.organizationId,
        apiKeyId: key.id,
      }),
    );
  });
