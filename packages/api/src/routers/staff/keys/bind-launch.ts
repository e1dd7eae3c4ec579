import { bindLaunchKey } from "@mga/core/launches";
import { adminProcedure } from "../../../trpc";
import { auditStaffAction } from "../audit-action";
import { bindLaunchInput, launchBindingSchema } from "./keys.types";

/** Lets a launch key issue launches for one public name (spec section 5 item 6). */
export const bindLaunch = adminProcedure
  .input(bindLaunchInput)
  .output(launchBindingSchema)
  .mutation(async ({ ctx, input }) => {
    const binding = await bindLaunchKey(ctx.db, { apiKeyId: input.id, publicName: input.integration });
    await auditStaffAction(ctx, "key.launch_bind", input.id, { integration: binding.publicName });
    return { integration: binding.publicName, canonical_integration: binding.integration, enabled: binding.enabled };
  });
