import { setTimeout as sleep } from "node:timers/promises";

import { startCpuMeter } from "./cpu-meter";
import { CHAT_SCOPES, type BenchEnvironment } from "./environment";
import type { LoadGenerator } from "./load-process";
import { throughput, type Row } from "./report";
import { median, medianRun, type Stats } from "./stats";

/** Below this rate of the bare handler, the load generator and not the servers sets the pace. */
export const GENERATOR_CEILING_FLOOR = 25_000;
/** Rounds of each kind; each figure is the median of them. */
export const ROUNDS = 3;

/** A service round with the CPU its requests cost, in microseconds per request. */
export interface CostedStats extends Stats {
  serverCpuUs: number;
  /** Undefined when the database is not ours to measure (DATABASE_URL). */
  databaseCpuUs: number | undefined;
}

/** How long and how wide one round is. */
export interface RoundOptions {
  seconds: number;
  connections: number;
}

/** One round of autocannon against `target`, from the load generator's process. */
export function throughputRound(
  generator: LoadGenerator,
  options: RoundOptions,
  target: { url: string; method: "GET" | "POST"; headers: Record<string, string>; body?: string | undefined },
): Promise<Stats> {
  const { body, ...request } = target;
  return generator.run({ kind: "throughput", ...request, ...(body === undefined ? {} : { body }), ...options });
}

export interface ThroughputResult {
  rows: Row[];
  /** The bare handler's median rate: the most this generator drives on this machine. */
  ceiling: number;
  capped: boolean;
}

/**
 * The throughput rounds, on autocannon in a process of its own: the bare node:http handler,
 * GET /v1/me and POST /v1/messages (JSON, instant upstream), after a warm-up round of each that
 * is not counted, ROUNDS times each, alternated
 * (bare, me, messages, bare, ...) so that a passing disturbance of the machine does not land
 * on one kind only; each figure is the median round, each ratio median against median. Every
 * service round has a key of its own: a key's budget is per minute (up to 100,000, docs/spec.md
 * "Rate limits"), so back-to-back rounds on one key would run into it and measure 429s.
 */
export async function throughputRounds(
  env: BenchEnvironment,
  generator: LoadGenerator,
  options: RoundOptions & {
    /** Waited after a service round before its CPU is read: the usage flush's delay. */
    settleMs: number;
  },
): Promise<ThroughputResult> {
  const round = (url: string, method: "GET" | "POST", headers: Record<string, string>, body?: string) =>
    throughputRound(generator, options, { url, method, headers, body });
  // The CPU a service round costs the server and the database per request, its off-path writes
  // included (the request log and usage are flushed within settleMs).
  const costed = async (run: () => Promise<Stats>): Promise<CostedStats> => {
    const spent = startCpuMeter(env);
    const stats = await run();
    await sleep(options.settleMs);
    const perRequest = (seconds: number) => (seconds * 1e6) / Math.max(1, stats.requests);
    const { server, database } = spent();
    return {
      ...stats,
      serverCpuUs: perRequest(server),
      databaseCpuUs: database === undefined ? undefined : perRequest(database),
    };
  };
  const question = JSON.stringify({
    message: "What is the minimum down payment for an FHA loan?",
    user: { external_user_id: "bench" },
  });
  const runs: { bare: Stats[]; me: CostedStats[]; messages: CostedStats[] } = { bare: [], me: [], messages: [] };
  // One round of each, not counted: the first seconds of a process are its JIT compiling the
  // path (a cold first round ran at half the rate of the next two), not its steady state.
  await round(`${env.bare.url}/`, "GET", {});
  await round(`${env.api.url}/v1/me`, "GET", { Authorization: `Bearer ${await env.newKey(CHAT_SCOPES)}` });
  await round(
    `${env.api.url}/v1/messages`,
    "POST",
    { Authorization: `Bearer ${await env.newKey(CHAT_SCOPES)}`, "Content-Type": "application/json" },
    question,
  );
  console.error("throughput warm-up done (one round of each, not counted)");
  for (let n = 1; n <= ROUNDS; n += 1) {
    runs.bare.push(await round(`${env.bare.url}/`, "GET", {}));
    const meKey = await env.newKey(CHAT_SCOPES);
    runs.me.push(await costed(() => round(`${env.api.url}/v1/me`, "GET", { Authorization: `Bearer ${meKey}` })));
    const messagesKey = await env.newKey(CHAT_SCOPES);
    runs.messages.push(
      await costed(() =>
        round(
          `${env.api.url}/v1/messages`,
          "POST",
          { Authorization: `Bearer ${messagesKey}`, "Content-Type": "application/json" },
          question,
        ),
      ),
    );
    console.error(
      `throughput round ${n} of ${ROUNDS}: bare ${rate(runs.bare)}, GET /v1/me ${rate(runs.me)}, POST /v1/messages ${rate(runs.messages)}`,
    );
  }
  const baseline = medianRun(runs.bare);
  const ceiling = baseline.rps;
  const capped = ceiling < GENERATOR_CEILING_FLOOR;
  const ceilingLine = `load generator's ceiling: the bare node:http handler at ${Math.round(ceiling).toLocaleString("en-US")} req/s`;
  console.error(
    capped
      ? `${ceilingLine}, below ${GENERATOR_CEILING_FLOOR.toLocaleString("en-US")} req/s: THE THROUGHPUT FIGURES ARE CAPPED BY THE LOAD GENERATOR, not by the servers`
      : ceilingLine,
  );
  return {
    ceiling,
    capped,
    rows: [
      {
        measure: `bare node:http JSON handler, the load generator's ceiling (${options.connections} connections, median of ${ROUNDS})`,
        value: `${throughput(baseline)} (rounds: ${allRates(runs.bare)})`,
        bare: "",
        comparison: "1.000×",
        target: `≥ ${GENERATOR_CEILING_FLOOR.toLocaleString("en-US")} req/s, else the figures are capped by the generator`,
        met: !capped,
      },
      versusBare("GET /v1/me", runs.me, baseline, 0.2),
      versusBare("POST /v1/messages (JSON, instant upstream)", runs.messages, baseline, 0.1),
    ],
  };
}

function versusBare(measure: string, runs: CostedStats[], baseline: Stats, target: number): Row {
  const median = medianRun(runs);
  const ratio = median.rps / baseline.rps;
  return {
    measure: `${measure} (median of ${runs.length})`,
    value: `${throughput(median)} (rounds: ${allRates(runs)}); CPU per request: ${cpuCost(runs)}`,
    bare: throughput(baseline),
    comparison: `${ratio.toFixed(3)}×`,
    target: `≥ ${target.toFixed(2)}×`,
    met: ratio >= target,
  };
}

const rate = (runs: Stats[]) => `${Math.round(runs.at(-1)?.rps ?? 0).toLocaleString("en-US")} req/s`;
const allRates = (runs: Stats[]) => runs.map((run) => Math.round(run.rps).toLocaleString("en-US")).join(", ");

/** The median CPU cost of the rounds, server and database apart: "88 µs server + 31 µs database". */
function cpuCost(runs: CostedStats[]): string {
  const server = `${Math.round(median(runs.map((run) => run.serverCpuUs)))} µs server`;
  const database = runs.map((run) => run.databaseCpuUs).filter((value) => value !== undefined);
  return database.length === runs.length ? `${server} + ${Math.round(median(database))} µs database` : server;
}
