import { setApiKeyRateLimit } from "@mga/core/keys";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { keyViewWithBinding } from "./key-view";
import { keyViewSchema, setRateLimitInput } from "./keys.types";

/** null returns the key to the default limit. */
export const setRateLimit = adminProcedure
  .input(setRateLimitInput)
  .output(keyViewSchema)
  .mutation(async ({ ctx, input }) => {
    const key = await setApiKeyRateLimit(ctx.db, input.id, input.rate_limit_per_minute);
    await auditStaffAction(ctx, "key.rate_limit", key.id, { rate_limit_per_minute: key.rateLimitPerMinute });
    return keyViewWithBinding(ctx.db, key);
  });
