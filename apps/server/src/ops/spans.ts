import { SpanKind, SpanStatusCode, type Span } from "@opentelemetry/api";

/**
 * What the span makers (request telemetry, the observer, traced SQL) need of OpenTelemetry: the
 * API package only, so that the SDK and the exporter (tracing.ts) load only when tracing is on.
 */
export { SpanKind, SpanStatusCode };

/** Ends `span` as failed with `error` recorded. */
export function endWithError(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.end();
}
