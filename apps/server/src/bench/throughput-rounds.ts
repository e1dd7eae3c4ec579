import { type BenchEnvironment, CHAT_SCOPES } from "./environment";
import type { LoadGenerator } from "./load-process";
import { type Row, throughput } from "./report";
import { medianRun, type Stats } from "./stats";

/** Below this rate of the bare handler, the load generator and not the servers sets the pace. */
export const GENERATOR_CEILING_FLOOR = 25_000;
/** Rounds of each kind; each figure is the median of them. */
export const ROUNDS = 3;

export interface ThroughputResult {
  rows: Row[];
  /** The bare handler's median rate: the most this generator drives on this machine. */
  ceiling: number;
  capped: boolean;
}

/**
 * The throughput rounds, on autocannon in a process of its own: the bare node:http handler,
 * GET /v1/me and POST /v1/messages (JSON, instant upstream), ROUNDS times each, alternated
 * (bare, me, messages, bare, ...) so that a passing disturbance of the machine does not land
 * on one kind only; each figure is the median round, each ratio median against median. Every
 * service round has a key of its own: a key's budget is per minute (up to 100,000, docs/spec.md
 * "Rate limits"), so back-to-back rounds on one key would run into it and measure 429s.
 */
export async function throughputRounds(env: BenchEnvironment, generator: LoadGenerator, options: { seconds: number; connections: number }): Promise<ThroughputResult> {
  const round = (url: string, method: "GET" | "POST", headers: Record<string, string>, body?: string) =>
    generator.run({ kind: "throughput", url, method, headers, ...(body === undefined ? {} : { body }), seconds: options.seconds, connections: options.connections });
  const question = JSON.stringify({ message: "What is the minimum down payment for an FHA loan?", user: { external_user_id: "bench" } });
  const runs: Record<"bare" | "me" | "messages", Stats[]> = { bare: [], me: [], messages: [] };
  for (let n = 1; n <= ROUNDS; n += 1) {
    runs.bare.push(await round(`${env.bare.url}/`, "GET", {}));
    runs.me.push(await round(`${env.api.url}/v1/me`, "GET", { Authorization: `Bearer ${await env.newKey(CHAT_SCOPES)}` }));
    runs.messages.push(await round(`${env.api.url}/v1/messages`, "POST", { Authorization: `Bearer ${await env.newKey(CHAT_SCOPES)}`, "Content-Type": "application/json" }, question));
    console.error(`throughput round ${n} of ${ROUNDS}: bare ${rate(runs.bare)}, GET /v1/me ${rate(runs.me)}, POST /v1/messages ${rate(runs.messages)}`);
  }
  const baseline = medianRun(runs.bare);
  const ceiling = baseline.rps;
  const capped = ceiling < GENERATOR_CEILING_FLOOR;
  const ceilingLine = `load generator's ceiling: the bare node:http handler at ${Math.round(ceiling).toLocaleString("en-US")} req/s`;
  console.error(capped ? `${ceilingLine}, below ${GENERATOR_CEILING_FLOOR.toLocaleString("en-US")} req/s: THE THROUGHPUT FIGURES ARE CAPPED BY THE LOAD GENERATOR, not by the servers` : ceilingLine);
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

function versusBare(measure: string, runs: Stats[], baseline: Stats, target: number): Row {
  const median = medianRun(runs);
  const ratio = median.rps / baseline.rps;
  return {
    measure: `${measure} (median of ${runs.length})`,
    value: `${throughput(median)} (rounds: ${allRates(runs)})`,
    bare: throughput(baseline),
    comparison: `${ratio.toFixed(3)}×`,
    target: `≥ ${target.toFixed(2)}×`,
    met: ratio >= target,
  };
}

const rate = (runs: Stats[]) => `${Math.round(runs.at(-1)?.rps ?? 0).toLocaleString("en-US")} req/s`;
const allRates = (runs: Stats[]) => runs.map((run) => Math.round(run.rps).toLocaleString("en-US")).join(", ");
