import os from "node:os";

import { CHAT_SCOPES, type BenchEnvironment } from "./environment";
import type { LoadGenerator } from "./load-process";
import { throughput, type Row } from "./report";
import { medianRun, type Stats } from "./stats";
import { ROUNDS, throughputRound, type RoundOptions } from "./throughput-rounds";

/** The second instance's process count: the smallest that shows whether a second core is used. */
const MORE_WORKERS = 2;

/**
 * GET /v1/me on the service as it runs by default (one process) and with WORKERS=2 (node:cluster,
 * docs/architecture.md "Every core"), both on the same database: ROUNDS alternated rounds each, a
 * fresh key per round, each figure the median round. The load generator needs a core too, so on a
 * machine of two cores the second worker has at most what the generator leaves it.
 */
export async function workerRounds(
  env: BenchEnvironment,
  generator: LoadGenerator,
  options: RoundOptions,
): Promise<Row[]> {
  const round = async (url: string) =>
    throughputRound(generator, options, {
      url: `${url}/v1/me`,
      method: "GET",
      headers: { Authorization: `Bearer ${await env.newKey(CHAT_SCOPES)}` },
    });
  const clustered = await env.startService({ workers: MORE_WORKERS });
  const runs: { one: Stats[]; more: Stats[] } = { one: [], more: [] };
  try {
    // The new service's first round would be its JIT warming up (throughput-rounds.ts); the first service is warm already.
    await round(clustered.url);
    for (let n = 1; n <= ROUNDS; n += 1) {
      runs.one.push(await round(env.api.url));
      runs.more.push(await round(clustered.url));
      console.error(
        `workers round ${n} of ${ROUNDS}: 1 worker ${Math.round(runs.one.at(-1)?.rps ?? 0)} req/s, ${MORE_WORKERS} workers ${Math.round(runs.more.at(-1)?.rps ?? 0)} req/s`,
      );
    }
  } finally {
    await clustered.stop();
  }
  const one = medianRun(runs.one);
  const more = medianRun(runs.more);
  const cores = os.availableParallelism();
  return [
    {
      measure: `GET /v1/me, WORKERS=1 (the default; median of ${ROUNDS})`,
      value: throughput(one),
      bare: "",
      comparison: "1.00× of one worker",
      target: "",
    },
    {
      measure: `GET /v1/me, WORKERS=${MORE_WORKERS} (median of ${ROUNDS}; ${cores} cores, the load generator on them too)`,
      value: throughput(more),
      bare: "",
      comparison: `${(more.rps / one.rps).toFixed(2)}× of one worker`,
      target: "",
    },
  ];
}
