import type { Stats } from "./stats";

/**
 * What the bench asks of its load generator (load-generator.ts, a process of its own):
 * - `throughput`: autocannon keeps `connections` keep-alive connections busy with the same
 *   request for `seconds`; requests per second and latency to the end of each response.
 * - `requests`: Node's http client, `connections` clients sending the same request for
 *   `seconds`; the latency is to the end of the response, or with `until: "first-content"` to
 *   the first SSE `content` frame (the response is still read to its end). For latencies at
 *   low concurrency (one connection) and the time to a stream's first frame, which autocannon
 *   does not measure.
 * - `burst`: `streams` requests sent at once, each on its own connection, each read to its
 *   end: the first `content` frame's latency, and whether the stream ended with exactly one
 *   terminal frame, a completion.
 */
export interface ThroughputJob {
  kind: "throughput";
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
}

export interface RequestsJob {
  kind: "requests";
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  until?: "end" | "first-content";
}

export interface BurstJob {
  kind: "burst";
  url: string;
  method: "POST";
  headers: Record<string, string>;
  body: string;
  streams: number;
}

export type LoadJob = ThroughputJob | RequestsJob | BurstJob;

export interface BurstResult extends Stats {
  /** Streams that answered 200 and ended with exactly one terminal frame, `public_api_complete`. */
  complete: number;
  /** How many streams ended with each number of terminal frames (`{ "1": 1000 }` when clean). */
  terminalFrames: Record<string, number>;
  /** How the streams were answered: by HTTP status, or the connection's error code (`{ "200": 1000 }` when clean). */
  answers: Record<string, number>;
  /** The type of each stream's last terminal frame, or `none` (`{ "public_api_complete": 1000 }` when clean). */
  endings: Record<string, number>;
  /** Milliseconds from sending the burst to the last stream's end. */
  durationMs: number;
}

/** What each job answers. */
export type LoadResult<J extends LoadJob> = J extends BurstJob ? BurstResult : Stats;
