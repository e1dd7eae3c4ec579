import { env } from "./env";

/**
 * Runs once as the console's server starts (Next's instrumentation hook): a bad configuration
 * stops it with the reason, rather than Next logging the error and serving failing pages.
 */
export function register(): void {
  try {
    if (!env().ADMIN_FORWARDING_KEY) {
      // Not fatal (a console in development), but every visitor would share one sign-in budget.
      console.warn(
        "ADMIN_FORWARDING_KEY is not set: the API counts every sign-in attempt against the console's own address (see `pnpm cli console:forwarding-key`)",
      );
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
