import { createApiKey, keySeparationWarnings } from "@mga/core/keys";
import { keyToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { createKeyInput, createKeyOutput } from "./keys.types";

/** The plaintext is in this response only; afterwards only its hash exists. */
export const createKey = adminProcedure
  .input(createKeyInput)
  .output(createKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const { key, plaintext } = await createApiKey(ctx.db, {
      organizationId: input.organization_id,
      name: input.name,
      scopes: input.scopes,
      rateLimitPerMinute: input.rate_limit_per_minute,
      expiresAt: input.expires_at === null ? null : new Date(input.expires_at),
    });
    await auditStaffAction(ctx, "key.create", key.id, {
      name: key.name,
      scopes: key.scopes,
      organization_id: key.organizationId,
      last_four: key.lastFour,
      ...(key.expiresAt ? { expires_at: key.expiresAt.toISOString() } : {}),
    });
    return { key: keyToOperatorView(key), plaintext, warnings: keySeparationWarnings(key.scopes) };
  });
