import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

import { poolUse, type Database } from "@mga/core/db";
import type { JobQueue } from "@mga/core/jobs";

/** Seconds: from a fast cached request to a long streamed answer. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * This process's Prometheus metrics (GET /metrics on the admin listener), made once by main.ts
 * (or the test app) and handed to what records them; no module-level registry. Labels hold
 * closed values only: a route is its template (`/v1/conversations/{conversationId}`), never the
 * path a client sent (docs/decisions.md, "Metrics").
 */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<"listener" | "method" | "route" | "status">;
  readonly httpDuration: Histogram<"listener" | "method" | "route" | "status">;
  readonly sseStreamsOpen: Gauge;
  readonly upstreamDuration: Histogram<"outcome">;
  readonly upstreamErrors: Counter<"reason">;
  readonly jobRuns: Counter<"queue" | "outcome">;
  readonly rateLimitRefusals: Counter<"policy">;
  readonly keyCacheLookups: Counter<"outcome">;
  /** Reads the database pool's use and the job queue's depth at each scrape, once both exist. */
  watch(sources: { db: Database; queue: JobQueue }): void;
  /*
   * Webhook deliveries (issue 26) register here when the webhooks area lands, as the counters
   * above: `mga_webhook_deliveries_total{outcome}` and a delivery-latency histogram, recorded
   * through a method of the core Observer (packages/core/src/observe/observer.ts).
   */
}

export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  // CPU, memory, event-loop lag, handles, GC: prom-client's standard process metrics.
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let sources: { db: Database; queue: JobQueue } | undefined;

  new Gauge({
    name: "mga_db_pool_connections",
    help: "Connections of the database pool by state (total open, idle, clients waiting for one; max is the configured size)",
    labelNames: ["state"],
    registers,
    collect() {
      const use = sources && poolUse(sources.db);
      if (!use) return;
      for (const [state, value] of Object.entries(use)) this.set({ state }, value);
    },
  });
  new Gauge({
    name: "mga_job_queue_jobs",
    help: "Jobs in each queue by state (ready: waiting and runnable, deferred: waiting for a retry's backoff, active), as of the queue's last count",
    labelNames: ["queue", "state"],
    // Every worker counts the same shared queues: with WORKERS > 1 the cluster's figure is one of them, not their sum.
    aggregator: "max",
    registers,
    async collect() {
      if (!sources?.queue.isRunning) return;
      // A scrape while the database is away still answers, with the other metrics.
      const depths = await sources.queue.depth().catch(() => []);
      for (const depth of depths) {
        for (const state of ["ready", "deferred", "active"] as const)
          this.set({ queue: depth.queue, state }, depth[state]);
      }
    },
  });

  return {
    registry,
    httpRequests: new Counter({
      name: "mga_http_requests_total",
      help: "HTTP requests answered, by listener, method, route template and status",
      labelNames: ["listener", "method", "route", "status"],
      registers,
    }),
    httpDuration: new Histogram({
      name: "mga_http_request_duration_seconds",
      help: "Time from a request's arrival to its response's end (a stream's whole length)",
      labelNames: ["listener", "method", "route", "status"],
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    sseStreamsOpen: new Gauge({
      name: "mga_sse_streams_open",
      help: "Event streams (streamed answers) open now",
      registers,
    }),
    upstreamDuration: new Histogram({
      name: "mga_upstream_duration_seconds",
      help: "Upstream chat calls from request to their end, by outcome (completed, or why not)",
      labelNames: ["outcome"],
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    upstreamErrors: new Counter({
      name: "mga_upstream_errors_total",
      help: "Upstream chat calls that failed, by reason (a client's cancellation is not one)",
      labelNames: ["reason"],
      registers,
    }),
    jobRuns: new Counter({
      name: "mga_job_runs_total",
      help: "Job attempts by queue and outcome (completed, failed: retried or given up)",
      labelNames: ["queue", "outcome"],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: "mga_rate_limit_refusals_total",
      help: "Requests refused by a rate limit, by policy (per-key, per-user)",
      labelNames: ["policy"],
      registers,
    }),
    keyCacheLookups: new Counter({
      name: "mga_key_cache_lookups_total",
      help: "API-key lookups by outcome: hit (answered from memory) or miss (read from the database)",
      labelNames: ["outcome"],
      registers,
    }),
    watch(watched) {
      sources = watched;
    },
  };
}
