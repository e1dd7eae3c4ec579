import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ChildServer } from "../../src/bench/child-server";
import type { BenchEnvironment } from "../../src/bench/environment";
import { startLoadGenerator, type LoadGenerator } from "../../src/bench/load-process";
import { GENERATOR_CEILING_FLOOR, ROUNDS, throughputRounds } from "../../src/bench/throughput-rounds";
import { workerRounds } from "../../src/bench/worker-rounds";

/**
 * `pnpm bench`'s throughput rounds (issue 27): bare, GET /v1/me and POST /v1/messages run
 * three times each, alternated, every service round with a key of its own (no round reaches
 * a key's per-minute limit), and the bare handler's rate is printed as the generator's
 * ceiling, flagged when it is under 25,000 req/s. Here the "servers" are plain handlers in
 * this process that record what reached them.
 */
const seen: Array<{ target: Target; path: string; authorization: string | undefined }> = [];
const servers: Server[] = [];
/** The "database" CPU the fake service reports: a millisecond per request it answered. */
let databaseSeconds = 0;
/** The options of every extra service the bench started. */
const startedWith: unknown[] = [];
let env: BenchEnvironment;
let generator: LoadGenerator;

type Target = "bare" | "api" | "workers";

async function recorder(target: Target): Promise<ChildServer> {
  const server = createServer((req, res) => {
    req.resume();
    const last = seen.at(-1);
    const entry = { target, path: req.url ?? "", authorization: req.headers.authorization };
    // One entry per run of identical requests: the order of rounds, not every request.
    if (!last || last.target !== entry.target || last.path !== entry.path || last.authorization !== entry.authorization)
      seen.push(entry);
    if (target === "api") databaseSeconds += 0.001;
    res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cpuSeconds = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  return {
    url,
    rss: () => 0,
    cpuSeconds,
    samplePeak: () => () => 0,
    heapSnapshot: () => Promise.reject(new Error("none")),
    stop: async () => {},
  };
}

beforeAll(async () => {
  generator = startLoadGenerator();
  let keys = 0;
  env = {
    db: undefined as never,
    organizationId: "org_test",
    newKey: async () => `key-${++keys}`,
    upstreamUrl: "http://127.0.0.1:9",
    setUpstreamPace: () => {},
    api: await recorder("api"),
    bare: await recorder("bare"),
    databaseCpuSeconds: () => databaseSeconds,
    startBareProxy: () => Promise.reject(new Error("no bursts here")),
    startService: async (options) => {
      startedWith.push(options);
      return recorder("workers");
    },
    databaseLabel: "none",
    stop: async () => {},
  };
});
afterAll(async () => {
  await generator?.stop();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("throughput rounds", () => {
  it(
    "warms up, then alternates bare, me and messages three times, each service round on a fresh key, and reports the generator's ceiling",
    { timeout: 60_000 },
    async () => {
      const result = await throughputRounds(env, generator, { seconds: 1, connections: 2, settleMs: 0 });
      expect(ROUNDS).toBe(3);
      // A warm-up round of each, then the three counted ones.
      expect(seen.map((entry) => `${entry.target} ${entry.path}`)).toEqual(
        Array.from({ length: 1 + 3 }, () => ["bare /", "api /v1/me", "api /v1/messages"]).flat(),
      );
      const keys = seen.filter((entry) => entry.target === "api").map((entry) => entry.authorization);
      expect(keys).toHaveLength(8);
      expect(new Set(keys).size).toBe(8);

      const [ceilingRow, meRow, messagesRow] = result.rows;
      expect(result.ceiling).toBeGreaterThan(0);
      expect(ceilingRow?.measure).toContain("ceiling");
      expect(ceilingRow?.met).toBe(result.ceiling >= GENERATOR_CEILING_FLOOR);
      expect(result.capped).toBe(result.ceiling < GENERATOR_CEILING_FLOOR);
      expect(meRow?.measure).toBe("GET /v1/me (median of 3)");
      expect(meRow?.target).toBe("≥ 0.20×");
      expect(messagesRow?.target).toBe("≥ 0.10×");
      expect(meRow?.value).toMatch(/rounds: [\d,]+, [\d,]+, [\d,]+/);
      // Each service row carries the CPU a request cost: the server's (here this process's) and the database's.
      for (const row of [meRow, messagesRow]) {
        const cost = /CPU per request: (\d+) µs server \+ (\d+) µs database$/.exec(row?.value ?? "");
        expect(cost, row?.value).not.toBeNull();
        expect(Number(cost?.[1])).toBeGreaterThan(0);
        expect(Number(cost?.[2])).toBeGreaterThanOrEqual(995);
        expect(Number(cost?.[2])).toBeLessThanOrEqual(1005);
      }
    },
  );

  it(
    "compares GET /v1/me on one worker and on a second service with WORKERS=2, alternated, each round on a fresh key",
    { timeout: 60_000 },
    async () => {
      seen.length = 0;
      const rows = await workerRounds(env, generator, { seconds: 1, connections: 2 });
      expect(startedWith).toEqual([{ workers: 2 }]);
      // The new service's warm-up round, then three alternated counted ones.
      expect(seen.map((entry) => `${entry.target} ${entry.path}`)).toEqual([
        "workers /v1/me",
        ...Array.from({ length: 3 }, () => ["api /v1/me", "workers /v1/me"]).flat(),
      ]);
      expect(new Set(seen.map((entry) => entry.authorization)).size).toBe(7);
      const [one, two] = rows;
      expect(one?.measure).toContain("WORKERS=1");
      expect(two?.measure).toContain("WORKERS=2");
      const rate = (row: typeof one) => Number(/^([\d,]+) req\/s/.exec(row?.value ?? "")?.[1]?.replaceAll(",", ""));
      expect(two?.comparison).toBe(`${(rate(two) / rate(one)).toFixed(2)}× of one worker`);
    },
  );
});
