/** A worker that served this long before dying was healthy: it is replaced at once. */
export const HEALTHY_AFTER_MS = 10_000;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 15_000;

/**
 * When to replace a worker that died, from how long it lived and how many of its slot's
 * workers died young in a row before it. A crash after a long life (an out-of-memory kill, an
 * operator's kill -9) is replaced at once; a worker that keeps dying young (a bad deploy, a
 * database it cannot reach) is replaced after 0.25 s, 0.5 s, 1 s… up to 15 s, so a crash loop
 * never spins the machine's cores or floods the logs.
 */
export function nextRestart(youngDeathsBefore: number, livedMs: number): { delayMs: number; youngDeaths: number } {
  if (livedMs >= HEALTHY_AFTER_MS) return { delayMs: 0, youngDeaths: 0 };
  const youngDeaths = youngDeathsBefore + 1;
  return { delayMs: Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (youngDeaths - 1)), youngDeaths };
}
