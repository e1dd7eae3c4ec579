import { setTimeout as sleep } from "node:timers/promises";

import type { ChildServer } from "./child-server";
import { startCpuMeter } from "./cpu-meter";
import type { BenchEnvironment } from "./environment";
import type { BurstResult } from "./load-jobs";
import type { LoadGenerator } from "./load-process";

/** What every stream of a burst asks (POST /v1/messages). */
export const STREAMED_QUESTION = {
  message: "What is the minimum down payment for an FHA loan?",
  user: { external_user_id: "bench" },
  stream: true,
};

export interface BurstRun {
  result: BurstResult;
  /** The server's RSS when the burst began. */
  idleBefore: number;
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
 * `streams` answer streams opened at once on `server` (the service, or the bare proxy it is
 * compared with) against the slow upstream (a frame a second for `streamSeconds`), each on its
 * own connection, read to their ends by the load generator; the server's RSS sampled meanwhile
 * and read again `settleMs` after the last one ended.
 */
export async function streamBurst(
  env: BenchEnvironment,
  generator: LoadGenerator,
  options: { server: ChildServer; streams: number; streamSeconds: number; key: string; settleMs: number },
): Promise<BurstRun> {
  const { server } = options;
  env.setUpstreamPace({ kind: "slow", seconds: options.streamSeconds });
  const idleBefore = server.rss();
  const spent = startCpuMeter(env, server);
  const peakOf = server.samplePeak();
  const result = await generator.run({
    kind: "burst",
    url: `${server.url}/v1/messages`,
    method: "POST",
    headers: { Authorization: `Bearer ${options.key}`, "Content-Type": "application/json" },
    body: JSON.stringify(STREAMED_QUESTION),
    streams: options.streams,
  });
  const peak = peakOf();
  env.setUpstreamPace({ kind: "instant" });
  await sleep(options.settleMs);
  const perStream = (seconds: number) => (seconds * 1000) / options.streams;
  const cpu = spent();
  const cpuMs = {
    server: perStream(cpu.server),
    database: cpu.database === undefined ? undefined : perStream(cpu.database),
  };
  return { result, idleBefore, peak, idleAfter: server.rss(), cpuMs };
}
