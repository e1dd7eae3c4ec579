import { createApiKey, keySeparationWarnings } from "@mga/core/keys";

import { keyToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { createKeyInput, createKeyOutput } from "./keys.types";

/** The plaintext is in this response only; afterwards only its hash exists. */
export const createKey = adminProcedure
  .input(createKeyInput)
  .output(createKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const { key, plaintext } = await auditedStaffChange(
      ctx,
      (tx) =>
        createApiKey(tx, {
          organizationId: input.organization_id,
          name: input.name,
          scopes: input.scopes,
          rateLimitPerMinute: input.rate_limit_per_minute,
          expiresAt: input.expires_at === null ? null : new Date(input.expires_at),
        }),
      ({ key: created }) => ({
        action: "key.create",
        target: created.id,
        details: {
          name: created.name,
          scopes: created.scopes,
          organization_id: created.organizationId,
          last_four: created.lastFour,
          ...(created.expiresAt ? { expires_at: created.expiresAt.toISOString() } : {}),
        },
      }),
    );
    return { key: keyToOperatorView(key), plaintext, warnings: keySeparationWarnings(key.scopes) };
  });
