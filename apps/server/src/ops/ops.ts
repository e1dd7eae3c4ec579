import type { Metrics } from "./metrics";
import type { Readiness } from "./readiness";
import type { Tracing } from "./tracing";

/** This process's operations surface, made once by main.ts (or the test app) and handed to both listeners. */
export interface Ops {
  metrics: Metrics;
  /** Undefined unless OTEL_EXPORTER_OTLP_ENDPOINT is set (or a test traces). */
  tracing: Tracing | undefined;
  readiness: Readiness;
  /** What GET /metrics answers; unset, this process's registry (with WORKERS > 1, the whole cluster's: cluster/cluster-metrics.ts). */
  exposition?: () => Promise<string>;
}
