import type { Observer, UpstreamOutcome } from "@mga/core/observe";

import type { Metrics } from "./metrics";
import { endWithError, SpanKind, SpanStatusCode } from "./spans";
import { tracedSql } from "./traced-sql";
import type { Tracing } from "./tracing";

/**
 * What core reports (observe/observer.ts), turned into this process's metrics and, when tracing
 * is on, spans. Label children are bound once here, so the hot path's key-cache and rate-limit
 * calls are one counter increment each.
 */
export function createObserver(metrics: Metrics, tracing: Tracing | undefined): Observer {
  const keyCache = { hit: metrics.keyCacheLookups.labels("hit"), miss: metrics.keyCacheLookups.labels("miss") };
  const refusals = {
    "per-key": metrics.rateLimitRefusals.labels("per-key"),
    "per-user": metrics.rateLimitRefusals.labels("per-user"),
  };
  return {
    keyCacheLookup(hit) {
      (hit ? keyCache.hit : keyCache.miss).inc();
    },
    rateLimitRefused(policy) {
      refusals[policy].inc();
    },
    sseStreamOpened() {
      metrics.sseStreamsOpen.inc();
      let open = true;
      return () => {
        if (!open) return;
        open = false;
        metrics.sseStreamsOpen.dec();
      };
    },
    upstreamCall() {
      const started = performance.now();
      const span = tracing?.tracer.startSpan("upstream.chat", { kind: SpanKind.CLIENT }, tracing.active());
      return (outcome: UpstreamOutcome) => {
        metrics.upstreamDuration.observe({ outcome }, (performance.now() - started) / 1000);
        const failed = outcome !== "completed" && outcome !== "cancelled";
        if (failed) metrics.upstreamErrors.inc({ reason: outcome });
        if (!span) return;
        span.setAttribute("mga.upstream.outcome", outcome);
        if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
        span.end();
      };
    },
    async runJob(queue, work) {
      const span = tracing?.tracer.startSpan(
        `job ${queue}`,
        { kind: SpanKind.CONSUMER, attributes: { "messaging.destination.name": queue } },
        tracing.active(),
      );
      try {
        const result = await (span && tracing ? tracing.withSpan(span, work) : work());
        metrics.jobRuns.inc({ queue, outcome: "completed" });
        span?.end();
        return result;
      } catch (error) {
        metrics.jobRuns.inc({ queue, outcome: "failed" });
        if (span) endWithError(span, error);
        throw error;
      }
    },
    wrapSql: tracing ? (sql) => tracedSql(sql, tracing) : undefined,
  };
}
