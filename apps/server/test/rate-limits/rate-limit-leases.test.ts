import { describe, expect, it } from "vitest";

import { useAppWithMockedUpstream } from "../support/upstream-mock";

/** Leased rate-limit tokens over real HTTP: two server instances on one PostgreSQL share one key's budget. */
const setup = useAppWithMockedUpstream({ secondInstance: true });

describe("rate limits from leased tokens", () => {
  it(
    "400 requests spread over two instances against a key limited to 100: at most 100 succeed, at least 90",
    { timeout: 60_000 },
    async () => {
      // Start well inside a minute window so the burst never straddles two windows.
      const msIntoMinute = Date.now() % 60_000;
      if (msIntoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - msIntoMinute));
      const { key } = await setup.app.newKey({ rateLimitPerMinute: 100 });
      const statuses: number[] = [];
      const remaining: number[] = [];
      // 20 connections at a time, alternating between the instances.
      for (let batch = 0; batch < 20; batch += 1) {
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? setup.app : setup.second).request("/v1/me", { key })),
        );
        for (const res of responses) {
          statuses.push(res.status);
          if (res.status === 200) remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
          else expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        }
      }
      const succeeded = statuses.filter((status) => status === 200).length;
      expect(succeeded).toBeLessThanOrEqual(100);
      expect(succeeded).toBeGreaterThanOrEqual(90);
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      expect(Math.min(...remaining)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...remaining)).toBeLessThanOrEqual(99);
    },
  );
});
