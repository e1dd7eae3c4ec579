import { revokeApiKey } from "@mga/core/keys";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { keyViewWithBinding } from "./key-view";
import { keyIdInput, keyViewSchema } from "./keys.types";

export const revokeKey = adminProcedure
  .input(keyIdInput)
  .output(keyViewSchema)
  .mutation(async ({ ctx, input }) => {
    const key = await revokeApiKey(ctx.db, input.id);
    await auditStaffAction(ctx, "key.revoke", key.id, { name: key.name, last_four: key.lastFour });
    return keyViewWithBinding(ctx.db, key);
  });
