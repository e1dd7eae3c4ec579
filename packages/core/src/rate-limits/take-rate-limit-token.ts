import type { Database } from "../db/database";
import { databaseOf } from "../db/transaction";
import { KeyBudgets } from "./key-budgets";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, RATE_LIMIT_WINDOW_SECONDS, type RateLimitState } from "./rate-limit";

/**
 * Counts one request of a key against its rate limit: from tokens this instance leased for
 * the current window, or after leasing more (docs/architecture.md, "Rate limits"). The
 * state says whether it was admitted (`count <= limit`); enforceRateLimit turns it into headers
 * or a 429.
 */
export async function takeRateLimitToken(
  db: Database,
  input: {
    keyId: string;
    /** The key's limit per window; null for the default. */
    limitPerMinute: number | null;
    /** The window's length; tests shorten it (the limit then applies per window). */
    windowSeconds?: number;
  },
): Promise<RateLimitState> {
  // One set of budgets per instance, leasing through the handle that opened it: a transaction's `tx` must not lease (a rollback would undo it).
  const budgets = (db.instance.rateLimitBudgets ??= new KeyBudgets(databaseOf(db)));
  return budgets.take(
    input.keyId,
    input.limitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
    input.windowSeconds ?? RATE_LIMIT_WINDOW_SECONDS,
  );
}
