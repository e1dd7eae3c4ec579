import { revokeApiKey } from "@mga/core/keys";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { keyViewWithBinding } from "./key-view";
import { keyIdInput, keyViewSchema } from "./keys.types";

export const revokeKey = adminProcedure
  .input(keyIdInput)
  .output(keyViewSchema)
  .mutation(async ({ ctx, input }) => {
    const key = await auditedStaffChange(
      ctx,
      (tx) => revokeApiKey(tx, input.id),
      (revoked) => ({
        action: "key.revoke",
        target: revoked.id,
        details: { name: revoked.name, last_four: revoked.lastFour },
      }),
    );
    return keyViewWithBinding(ctx.db, key);
  });
