import type { Database } from "../db/database";
import { leaseTokens, type LeaseResult } from "./lease-tokens";
import type { RateLimitState } from "./rate-limit";
import { largestSlice, nextSlice } from "./slice-policy";

/** Keys an instance keeps budgets for; past it, budgets of ended windows go first, then the oldest. */
const MAX_TRACKED_KEYS = 10_000;

/** What one instance knows of one key's current window. */
interface Budget {
  limit: number;
  windowSeconds: number;
  /** The window the tokens belong to (seconds since the epoch of its start); NaN before the first lease. */
  windowStart: number;
  /** Leased by this instance and not yet spent. */
  tokens: number;
  /** Leased in this window by all instances, as of this instance's last lease. */
  leasedTotal: number;
  /** Local time until which `tokens` may be spent: the window's end, measured from before the lease was sent (never late). */
  spendUntil: number;
  /** Local time the window ends, measured from after the answer came (never early): what Retry-After counts down to. */
  resetAt: number;
  /** Size of the last granted lease, and when it was granted (local time; 0 before the first). */
  slice: number;
  leasedAt: number;
  /** Requests of this instance waiting for a lease of this key. */
  waiting: number;
  /** The one lease under way for this key; every request that finds no token waits for it. Resolves to whether it granted tokens. */
  inFlight: Promise<boolean> | undefined;
}

/**
 * One instance's share of every key's rate-limit budget: requests are admitted from tokens
 * leased from PostgreSQL (leaseTokens), so only one request per slice pays a round trip.
 * Unspent tokens expire with their window and stay counted there (conservative: they are
 * never returned, so a window's total can only be over-counted, never under-counted).
 */
export class KeyBudgets {
  private readonly budgets = new Map<string, Budget>();

  constructor(private readonly db: Database) {}

  async take(keyId: string, limit: number, windowSeconds: number): Promise<RateLimitState> {
    const budget = this.budgetFor(keyId, limit, windowSeconds);
    for (;;) {
      const now = Date.now();
      if (now >= budget.spendUntil) budget.tokens = 0;
      if (budget.tokens > 0) {
        budget.tokens -= 1;
        return admitted(budget, now);
      }
      budget.waiting += 1;
      let granted: boolean;
      try {
        granted = await (budget.inFlight ??= this.lease(keyId, budget));
      } finally {
        budget.waiting -= 1;
      }
      // Everyone who waited for a refused lease is refused: the answer is as fresh as their request.
      if (!granted) return refused(budget, Date.now());
    }
  }

  /** Leases the next slice; when the budget left cannot cover it, smaller ones down to one token. */
  private async lease(keyId: string, budget: Budget): Promise<boolean> {
    try {
      let slice =
        budget.leasedAt === 0
          ? Math.min(largestSlice(budget.limit), Math.max(1, budget.waiting))
          : nextSlice({
              previous: budget.slice,
              spentInMs: Date.now() - budget.leasedAt,
              waiting: budget.waiting,
              limit: budget.limit,
            });
      for (;;) {
        const sentAt = Date.now();
        const result = await leaseTokens(this.db, {
          keyId,
          slice,
          limit: budget.limit,
          windowSeconds: budget.windowSeconds,
        });
        record(budget, result, sentAt, Date.now());
        if (result.granted > 0) {
          budget.tokens += result.granted;
          budget.slice = result.granted;
          budget.leasedAt = Date.now();
          return true;
        }
        const left = budget.limit - result.leasedTotal;
        slice = left < slice ? left : Math.floor(slice / 2);
        if (slice < 1) {
          budget.slice = 1;
          return false;
        }
      }
    } finally {
      budget.inFlight = undefined;
    }
  }

  private budgetFor(keyId: string, limit: number, windowSeconds: number): Budget {
    const known = this.budgets.get(keyId);
    // A changed limit drops what was leased under the old one (counted as used): the new limit holds at once.
    if (known && known.limit === limit && known.windowSeconds === windowSeconds) return known;
    if (!known && this.budgets.size >= MAX_TRACKED_KEYS) this.evict();
    const budget: Budget = {
      limit,
      windowSeconds,
      windowStart: Number.NaN,
      tokens: 0,
      leasedTotal: 0,
      spendUntil: 0,
      resetAt: 0,
      slice: 1,
      leasedAt: 0,
      waiting: 0,
      inFlight: undefined,
    };
    this.budgets.set(keyId, budget);
    return budget;
  }

  private evict(): void {
    const now = Date.now();
    const idle = [...this.budgets].filter(([, budget]) => !budget.inFlight && budget.waiting === 0);
    for (const [keyId, budget] of idle) if (budget.spendUntil <= now) this.budgets.delete(keyId);
    if (this.budgets.size < MAX_TRACKED_KEYS) return;
    const oldest = idle.find(([keyId]) => this.budgets.has(keyId));
    if (oldest) this.budgets.delete(oldest[0]);
  }
}

function record(budget: Budget, result: LeaseResult, sentAt: number, receivedAt: number): void {
  if (result.windowStart !== budget.windowStart) {
    budget.windowStart = result.windowStart;
    budget.tokens = 0;
    budget.leasedTotal = result.leasedTotal;
  } else {
    // Answers may arrive out of order; within a window the total only grows.
    budget.leasedTotal = Math.max(budget.leasedTotal, result.leasedTotal);
  }
  budget.spendUntil = sentAt + result.endsInMs;
  budget.resetAt = receivedAt + result.endsInMs;
}

function resetSeconds(budget: Budget, now: number): number {
  return Math.max(1, Math.ceil((budget.resetAt - now) / 1000));
}

/** Remaining: what no instance has leased yet, plus this instance's unspent tokens. */
function admitted(budget: Budget, now: number): RateLimitState {
  const remaining = Math.max(0, budget.limit - budget.leasedTotal) + budget.tokens;
  return {
    limit: budget.limit,
    count: budget.limit - remaining,
    resetSeconds: resetSeconds(budget, now),
    windowSeconds: budget.windowSeconds,
  };
}

function refused(budget: Budget, now: number): RateLimitState {
  return {
    limit: budget.limit,
    count: budget.limit + 1,
    resetSeconds: resetSeconds(budget, now),
    windowSeconds: budget.windowSeconds,
  };
}
