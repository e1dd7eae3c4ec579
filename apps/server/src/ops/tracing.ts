import { ROOT_CONTEXT, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, SimpleSpanProcessor, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";

/**
 * OpenTelemetry traces, made only when OTEL_EXPORTER_OTLP_ENDPOINT is set (or by a test with its
 * in-memory exporter): undefined everywhere otherwise, so a request pays one check of it. This
 * module (the SDK and the exporter) is imported by main.ts only then; what runs per request
 * imports its types and @opentelemetry/api alone (spans.ts). Nothing
 * is registered globally (no `trace.setGlobalTracerProvider`): the provider, its tracer and the
 * context manager live in this object, handed explicitly to what makes spans.
 */
export interface Tracing {
  readonly tracer: Tracer;
  /** The context active now (AsyncLocalStorage): the parent of a span started here. */
  active(): Context;
  /** Runs `work` with `span` active, so that the spans it starts are its children. */
  withSpan<T>(span: Span, work: () => T): T;
  /** The context of an incoming request's `traceparent` header (W3C), if it has one. */
  incoming(headers: Record<string, string | string[] | undefined>): Context;
  /** Exports what is pending and stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  serviceName: string;
  /** An OTLP/HTTP endpoint (its base: `/v1/traces` is appended, as the OTel spec says of OTEL_EXPORTER_OTLP_ENDPOINT). */
  endpoint?: string | undefined;
  /** Instead of the OTLP exporter (tests: InMemorySpanExporter); spans are then exported one by one as they end. */
  exporter?: SpanExporter;
}

export function startTracing(options: TracingOptions): Tracing {
  const processor = options.exporter
    ? new SimpleSpanProcessor({ exporter: options.exporter })
    : new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${(options.endpoint ?? "").replace(/\/+$/, "")}/v1/traces` }),
      });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName }),
    spanProcessors: [processor],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const propagator = new W3CTraceContextPropagator();
  const getter = {
    keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
    get: (carrier: Record<string, string | string[] | undefined>, key: string) => carrier[key],
  };
  return {
    tracer: provider.getTracer("mga-server"),
    active: () => contextManager.active(),
    withSpan: (span, work) => contextManager.with(trace.setSpan(contextManager.active(), span), work),
    incoming: (headers) => propagator.extract(ROOT_CONTEXT, headers, getter),
    async shutdown() {
      await provider.shutdown();
      contextManager.disable();
    },
  };
}
