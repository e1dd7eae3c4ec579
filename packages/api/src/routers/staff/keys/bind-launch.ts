import { bindLaunchKey } from "@mga/core/launches";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { bindLaunchInput, launchBindingSchema } from "./keys.types";

/** Lets a launch key issue launches for one public name (spec section 5 item 6). */
export const bindLaunch = adminProcedure
  .input(bindLaunchInput)
  .output(launchBindingSchema)
  .mutation(async ({ ctx, input }) => {
    const binding = await auditedStaffChange(
      ctx,
      (tx) => bindLaunchKey(tx, { apiKeyId: input.id, publicName: input.integration }),
      (bound) => ({ action: "key.launch_bind", target: input.id, details: { integration: bound.publicName } }),
    );
    return { integration: binding.publicName, canonical_integration: binding.integration, enabled: binding.enabled };
  });
