import { unbindLaunchKey } from "@mga/core/launches";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { keyIdInput, unbindLaunchOutput } from "./keys.types";

export const unbindLaunch = adminProcedure
  .input(keyIdInput)
  .output(unbindLaunchOutput)
  .mutation(async ({ ctx, input }) => {
    await auditedStaffChange(
      ctx,
      (tx) => unbindLaunchKey(tx, input.id),
      () => ({ action: "key.launch_unbind", target: input.id }),
    );
    return { enabled: false as const };
  });
