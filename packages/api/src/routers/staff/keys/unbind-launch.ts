import { unbindLaunchKey } from "@mga/core/launches";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { keyIdInput, unbindLaunchOutput } from "./keys.types";

export const unbindLaunch = adminProcedure
  .input(keyIdInput)
  .output(unbindLaunchOutput)
  .mutation(async ({ ctx, input }) => {
    await unbindLaunchKey(ctx.db, input.id);
    await auditStaffAction(ctx, "key.launch_unbind", input.id);
    return { enabled: false as const };
  });
