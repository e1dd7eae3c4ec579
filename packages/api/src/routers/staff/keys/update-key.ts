import { getApiKey, keySeparationWarnings, keyUpdateAuditDetails, updateApiKey } from "@mga/core/keys";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { keyViewWithBinding } from "./key-view";
import { updateKeyInput, updateKeyOutput } from "./keys.types";

/** Renames a key and/or replaces its scopes: every instance applies it from the key's next request. Audited with before and after. */
export const updateKey = adminProcedure
  .input(updateKeyInput)
  .output(updateKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const before = await getApiKey(ctx.db, input.id);
    const key = await auditedStaffChange(
      ctx,
      (tx) => updateApiKey(tx, input.id, { name: input.name, scopes: input.scopes }),
      (updated) => ({
        action: "key.update",
        target: updated.id,
        details: keyUpdateAuditDetails(before, updated, input),
      }),
    );
    return { key: await keyViewWithBinding(ctx.db, key), warnings: keySeparationWarnings(key.scopes) };
  });
