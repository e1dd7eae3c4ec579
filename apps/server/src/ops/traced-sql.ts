import { trace } from "@opentelemetry/api";

import type { Sql } from "@mga/core/db";

import { endWithError, SpanKind } from "./spans";
import type { Tracing } from "./tracing";

/**
 * The service's SQL with a client span per query, child of the span active when it runs (a
 * request's, a job's). Manual spans around the one access seam rather than
 * @opentelemetry/instrumentation-pg: that one patches `pg` through module-load hooks, which an
 * ESM bundle (tsup's dist) only gets with a `--import` loader registered before anything else,
 * and it would run per query whether tracing is on or not; this wrapper exists only when
 * tracing is on (docs/architecture.md, "Operations"). A query outside any span (the sweeps,
 * the key cache's listener) makes none: a trace per background query would drown the rest.
 */
export function tracedSql(sql: Sql, tracing: Tracing): Sql {
  const query = (...args: unknown[]): unknown => {
    const parent = tracing.active();
    const run = () => (sql.query as (...rest: unknown[]) => unknown)(...args);
    if (!trace.getSpan(parent)) return run();
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    const span = tracing.tracer.startSpan(
      "db.query",
      {
        kind: SpanKind.CLIENT,
        attributes: {
          "db.system.name": "postgresql",
          // The statement with its $n placeholders: values are never recorded.
          ...(text
            ? {
                "db.query.text": text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text,
                "db.operation.name": operationOf(text),
              }
            : {}),
        },
      },
      parent,
    );
    const result = run();
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (value: unknown) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        endWithError(span, error);
        throw error;
      },
    );
  };
  return { query: query as Sql["query"] };
}

function operationOf(text: string): string {
  return /^\s*(?:WITH\b[\s\S]*?\)\s*)?([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? "QUERY";
}
