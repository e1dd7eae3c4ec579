import { setApiKeyRateLimit } from "@mga/core/keys";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { keyViewWithBinding } from "./key-view";
import { keyViewSchema, setRateLimitInput } from "./keys.types";

/** null returns the key to the default limit. */
export const setRateLimit = adminProcedure
  .input(setRateLimitInput)
  .output(keyViewSchema)
  .mutation(async ({ ctx, input }) => {
    const key = await auditedStaffChange(
      ctx,
      (tx) => setApiKeyRateLimit(tx, input.id, input.rate_limit_per_minute),
      (changed) => ({
        action: "key.rate_limit",
        target: changed.id,
        details: { rate_limit_per_minute: changed.rateLimitPerMinute },
      }),
    );
    return keyViewWithBinding(ctx.db, key);
  });
