/**
 * How many tokens of a key's window budget an instance leases at once. A slice is at most
 * 1/SLICE_DIVISOR of the limit, so what instances hold unspent is bounded by one slice each
 * (5% of the limit each), and a key whose limit is under 2 × SLICE_DIVISOR per window leases
 * one token at a time: its limit is exact whatever the number of instances.
 */
export const SLICE_DIVISOR = 20;
/** A slice should last about this long at the demand this instance sees. */
export const LEASE_TARGET_MS = 1_000;

export function largestSlice(limit: number): number {
  return Math.max(1, Math.floor(limit / SLICE_DIVISOR));
}

/**
 * The next slice after one of `previous` tokens was spent in `spentInMs`, with `waiting`
 * requests of this instance queued for it. Like TCP's slow start, it at most doubles per lease
 * (a short burst does not claim a large slice), shrinks to about LEASE_TARGET_MS of observed
 * demand when requests slow down, and covers at least the requests already waiting.
 */
export function nextSlice(input: { previous: number; spentInMs: number; waiting: number; limit: number }): number {
  const perTarget = Math.ceil((input.previous / Math.max(1, input.spentInMs)) * LEASE_TARGET_MS);
  const wanted = Math.max(Math.min(input.previous * 2, perTarget), input.waiting);
  return Math.min(largestSlice(input.limit), Math.max(1, wanted));
}
