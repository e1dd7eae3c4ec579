import { Agent, request } from "node:http";
import { parentPort, workerData } from "node:worker_threads";

/**
 * Load generator, in a worker thread so that it runs on its own core beside the servers:
 * `connections` concurrent keep-alive clients send the same request for `seconds`.
 */
interface Job {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  /** Measure time to the first body byte instead of the whole response. */
  firstByte?: boolean;
}

const job = workerData as Job;
const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
const latencies: number[] = [];
let errors = 0;
const deadline = performance.now() + job.seconds * 1000;

function once(): Promise<void> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(job.url, { method: job.method, headers: job.headers, agent }, (res) => {
      let first = true;
      res.on("data", () => {
        if (first && job.firstByte) latencies.push(performance.now() - started);
        first = false;
      });
      res.on("end", () => {
        if (res.statusCode !== 200) errors += 1;
        else if (!job.firstByte) latencies.push(performance.now() - started);
        resolve();
      });
    });
    req.on("error", () => {
      errors += 1;
      resolve();
    });
    req.end(job.body);
  });
}

async function client() {
  while (performance.now() < deadline) await once();
}

const began = performance.now();
await Promise.all(Array.from({ length: job.connections }, client));
const elapsed = (performance.now() - began) / 1000;
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
parentPort?.postMessage({ requests: latencies.length, errors, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) });
