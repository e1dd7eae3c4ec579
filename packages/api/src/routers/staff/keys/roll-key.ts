import { keyRollAuditDetails, rollApiKey } from "@mga/core/keys";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { keyViewWithBinding } from "./key-view";
import { rollKeyInput, rollKeyOutput } from "./keys.types";

/** A successor with a new secret (shown in this response only) and the old key's expiry, both audited on the old key. */
export const rollKey = adminProcedure
  .input(rollKeyInput)
  .output(rollKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const rolled = await auditedStaffChange(
      ctx,
      (tx) =>
        rollApiKey(tx, input.id, {
          oldKeyExpiresInSeconds: input.old_key_expires_in_seconds,
          expiresAt: input.expires_at === null ? null : new Date(input.expires_at),
        }),
      (result) => ({ action: "key.roll", target: result.previous.id, details: keyRollAuditDetails(result) }),
    );
    const [key, previous] = await Promise.all([
      keyViewWithBinding(ctx.db, rolled.key),
      keyViewWithBinding(ctx.db, rolled.previous),
    ]);
    return { key, plaintext: rolled.plaintext, previous };
  });
