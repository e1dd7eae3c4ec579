import { setTimeout as sleep } from "node:timers/promises";

import { startCpuMeter } from "./cpu-meter";
import type { BenchEnvironment } from "./environment";
import type { BurstResult } from "./load-jobs";
import type { LoadGenerator } from "./load-process";

export interface BurstRun {
  result: BurstResult;
  /** The server's highest RSS while the streams were open. */
  peak: number;
  /** The server's RSS once the streams have ended and it has settled. */
  idleAfter: number;
  /**
   * CPU milliseconds a stream cost, its opening and all its frames (their writes for the other
   * instances included): the server's, and the embedded PostgreSQL's (cpu-meter.ts). Unlike the
   * first frame's latency, the machine's other load barely moves it.
   */
  cpuMs: { server: number; database: number | undefined };
}

/**
 * `streams` answer streams opened at once against the slow upstream (a frame a second for
 * `streamSeconds`), each on its own connection, read to their ends by the load generator;
 * the server's RSS sampled meanwhile and read again `settleMs` after the last one ended.
 */
export async function streamBurst(
  env: BenchEnvironment,
  generator: LoadGenerator,
  options: { streams: number; streamSeconds: number; key: string; settleMs: number },
): Promise<BurstRun> {
  const question = {
    message: "What is the minimum down payment for an FHA loan?",
    user: { external_user_id: "bench" },
    stream: true,
  };
  env.setUpstreamPace({ kind: "slow", seconds: options.streamSeconds });
  const spent = startCpuMeter(env);
  const peakOf = env.api.samplePeak();
  const result = await generator.run({
    kind: "burst",
    url: `${env.api.url}/v1/messages`,
    method: "POST",
    headers: { Authorization: `Bearer ${options.key}`, "Content-Type": "application/json" },
    body: JSON.stringify(question),
    streams: options.streams,
  });
  const peak = peakOf();
  env.setUpstreamPace({ kind: "instant" });
  await sleep(options.settleMs);
  const perStream = (seconds: number) => (seconds * 1000) / options.streams;
  const { server, database } = spent();
  const cpuMs = { server: perStream(server), database: database === undefined ? undefined : perStream(database) };
  return { result, peak, idleAfter: env.api.rss(), cpuMs };
}
