/** One measured target: throughput and latency percentiles in milliseconds. */
export interface Stats {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

/** The value at quantile `q` of an ascending list (nearest rank); 0 for an empty list. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** p50, p95 and p99 of `latencies` (sorted in place). */
export function percentiles(latencies: number[]): Pick<Stats, "p50" | "p95" | "p99"> {
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), p99: percentile(latencies, 0.99) };
}

/** The middle value (the mean of the two middle ones for an even count: compare-builds' pairs); 0 for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  if (sorted.length % 2) return sorted[half] ?? 0;
  return sorted.length ? ((sorted[half - 1] ?? 0) + (sorted[half] ?? 0)) / 2 : 0;
}

/** The median of three or more runs by requests per second (the run itself, so its latencies go with it). */
export function medianRun<T extends Stats>(runs: readonly T[]): T {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!middle) throw new Error("no runs to take the median of");
  return middle;
}
