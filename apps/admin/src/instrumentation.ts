import { env } from "./env";

/**
 * Runs once as the console's server starts (Next's instrumentation hook): a bad configuration
 * stops it with the reason, rather than Next logging the error and serving failing pages.
 */
export function register(): void {
  try {
    env();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
