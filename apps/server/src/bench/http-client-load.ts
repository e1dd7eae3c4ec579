import { Agent, request } from "node:http";

import type { BurstJob, BurstResult, RequestsJob } from "./load-jobs";
import { frameTypes } from "./sse-frames";
import { percentiles, type Stats } from "./stats";

/**
 * The `requests` and `burst` jobs (load-jobs.ts), on Node's own http client: it reads each
 * response as it arrives, so it can time a stream's first `content` frame and check its
 * terminal frames, which autocannon does not. Runs inside the load generator's process.
 */

/** What ends an API answer stream (spec 6.1), or an upstream's answer (an error frame, whatever its code). */
const isTerminal = (type: string) => type === "public_api_complete" || type.startsWith("error");

function exchange(
  job: RequestsJob | BurstJob,
  agent: Agent,
  onFirstContent: (ms: number) => void,
): Promise<{ status: number; frames: string[]; ms: number; error?: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(job.url, { method: job.method, headers: job.headers, agent }, (res) => {
      let text = "";
      let seen = false;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
        if (!seen && text.includes('"type":"content"')) {
          seen = true;
          onFirstContent(performance.now() - started);
        }
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, frames: frameTypes(text), ms: performance.now() - started }),
      );
      res.on("error", (error: NodeJS.ErrnoException) =>
        resolve({ status: 0, frames: [], ms: 0, error: error.code ?? error.message }),
      );
    });
    req.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ status: 0, frames: [], ms: 0, error: error.code ?? error.message }),
    );
    req.end(job.body);
  });
}

export async function runRequests(job: RequestsJob): Promise<Stats> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + job.seconds * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      let firstContent: number | undefined;
      const result = await exchange(job, agent, (ms) => (firstContent = ms));
      if (result.status !== 200) errors += 1;
      else if (job.until !== "first-content") latencies.push(result.ms);
      else if (firstContent === undefined) errors += 1;
      else latencies.push(firstContent);
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: job.connections }, client));
  const elapsed = (performance.now() - began) / 1000;
  agent.destroy();
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, ...percentiles(latencies) };
}

export async function runBurst(job: BurstJob): Promise<BurstResult> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const firstContent: number[] = [];
  const terminalFrames: Record<string, number> = {};
  const answers: Record<string, number> = {};
  const endings: Record<string, number> = {};
  let complete = 0;
  let errors = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: job.streams }, async () => {
      const result = await exchange(job, agent, (ms) => firstContent.push(ms));
      const terminal = result.frames.filter(isTerminal);
      terminalFrames[terminal.length] = (terminalFrames[terminal.length] ?? 0) + 1;
      const answer = result.status === 0 ? (result.error ?? "no answer") : String(result.status);
      answers[answer] = (answers[answer] ?? 0) + 1;
      const ending = terminal.at(-1) ?? "none";
      endings[ending] = (endings[ending] ?? 0) + 1;
      if (result.status === 200 && terminal.length === 1 && result.frames.at(-1) === "public_api_complete")
        complete += 1;
      else errors += 1;
    }),
  );
  const durationMs = performance.now() - began;
  agent.destroy();
  return {
    requests: job.streams,
    errors,
    rps: job.streams / (durationMs / 1000),
    ...percentiles(firstContent),
    complete,
    terminalFrames,
    answers,
    endings,
    durationMs,
  };
}
