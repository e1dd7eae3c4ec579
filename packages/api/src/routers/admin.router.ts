import { router } from "../trpc";
import { staffRouter } from "./staff/staff.router";
import { systemRouter } from "./system/system.router";

/**
 * The admin console's procedures, served on the admin listener's /trpc only (never on the
 * public port): staff sign-in, sessions and every staff action, and the service's status.
 */
export const adminRouter = router({
  staff: staffRouter,
  system: systemRouter,
});

export type AdminRouter = typeof adminRouter;
