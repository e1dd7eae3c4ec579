import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";

import { runLoad, startLoadGenerator } from "../../src/bench/load-process";
import { median, medianRun, type Stats } from "../../src/bench/stats";

/**
 * The bench's load generator (issue 27): its throughput rounds run on autocannon in a process
 * of its own (so it shares no event loop with what it measures), count only 2xx answers, and
 * time them to fractions of a millisecond; figures are the median of the rounds.
 */
let server: Server | undefined;
afterEach(async () => {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

/** A server answering every request with `status`, counting them. */
async function serve(status: number): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = createServer((req, res) => {
    requests += 1;
    req.resume();
    res.writeHead(status, { "Content-Type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

describe("load generator", () => {
  it(
    "drives a throughput round from a process of its own and counts the 2xx answers",
    { timeout: 30_000 },
    async () => {
      const target = await serve(200);
      const stats = await runLoad({
        kind: "throughput",
        url: `${target.url}/`,
        method: "GET",
        headers: {},
        connections: 4,
        seconds: 1,
      });
      expect(stats.errors).toBe(0);
      expect(stats.requests).toBeGreaterThan(10);
      // Every request the server answered is counted (autocannon stops at the deadline; one in flight per connection may be cut).
      expect(target.requests() - stats.requests).toBeLessThanOrEqual(4);
      expect(stats.rps).toBeGreaterThan(0);
      expect(stats.p50).toBeGreaterThan(0);
      expect(stats.p99).toBeGreaterThanOrEqual(stats.p50);
      // Latencies are kept in fractions of a millisecond, not autocannon's whole milliseconds.
      expect(Number.isInteger(stats.p50) && Number.isInteger(stats.p95) && Number.isInteger(stats.p99)).toBe(false);
    },
  );

  it("counts answers other than 2xx as errors, never as throughput", { timeout: 30_000 }, async () => {
    const target = await serve(429);
    const stats = await runLoad({
      kind: "throughput",
      url: `${target.url}/`,
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
      connections: 2,
      seconds: 1,
    });
    expect(stats.requests).toBe(0);
    expect(stats.rps).toBe(0);
    expect(stats.errors).toBeGreaterThan(0);
  });

  it("runs one job after another in one generator process, then exits when stopped", { timeout: 30_000 }, async () => {
    const target = await serve(200);
    const generator = startLoadGenerator();
    const first = await generator.run({
      kind: "throughput",
      url: `${target.url}/`,
      method: "GET",
      headers: {},
      connections: 2,
      seconds: 1,
    });
    const second = await generator.run({
      kind: "requests",
      url: `${target.url}/`,
      method: "GET",
      headers: {},
      connections: 1,
      seconds: 1,
    });
    await generator.stop();
    expect(first.requests).toBeGreaterThan(10);
    expect(second.requests).toBeGreaterThan(10);
    await expect(
      generator.run({
        kind: "requests",
        url: `${target.url}/`,
        method: "GET",
        headers: {},
        connections: 1,
        seconds: 1,
      }),
    ).rejects.toThrow(/exited/);
  });

  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });

  it("takes the median round, with its own latencies", () => {
    const run = (rps: number): Stats => ({ requests: rps, errors: 0, rps, p50: rps / 1000, p95: 0, p99: 0 });
    expect(medianRun([run(9000), run(1700), run(8500)])).toEqual(run(8500));
    expect(medianRun([run(3), run(1), run(2)]).p50).toBe(0.002);
  });
});
