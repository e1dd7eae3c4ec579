import autocannon from "autocannon";

import type { ThroughputJob } from "./load-jobs";
import { percentiles, type Stats } from "./stats";

/**
 * A `throughput` job on autocannon: its HTTP/1.1 client writes prebuilt requests and parses
 * responses with far less work per request than Node's http client, so one process of it
 * drives a bare node:http handler well past the rates the bench compares. Latencies are
 * collected from its `response` events (fractions of a millisecond; its own histogram keeps
 * whole milliseconds); only 2xx answers count, anything else is an error.
 */
export async function runThroughput(job: ThroughputJob): Promise<Stats> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        method: job.method,
        headers: job.headers,
        ...(job.body === undefined ? {} : { body: job.body }),
        connections: job.connections,
        duration: job.seconds,
      },
      (error, finished) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(finished),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { requests: latencies.length, errors, rps: latencies.length / result.duration, ...percentiles(latencies) };
}
