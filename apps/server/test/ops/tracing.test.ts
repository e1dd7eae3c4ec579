import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { startTracing, type Tracing } from "../../src/ops/tracing";
import { newPartner } from "../support/partners";
import { ACME_TENANT } from "../support/tenants";
import { startTestApp, type TestApp } from "../support/test-app";
import { answer, received, upstreamAnswers, upstreamServer } from "../support/upstream-mock";

/**
 * OpenTelemetry traces (issue 26), exported to memory: one request's span carries its request
 * id and is the parent of the database queries and the upstream call it made. Off, no span is
 * made at all (the other test files run with tracing off).
 */
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let app: TestApp;
beforeAll(async () => {
  upstreamServer.listen({ onUnhandledFrame: "bypass" });
  tracing = startTracing({ serviceName: "mga-test", exporter });
  app = await startTestApp({ tracing });
});
afterEach(() => {
  upstreamServer.resetHandlers();
  received.length = 0;
});
afterAll(async () => {
  upstreamServer.close();
  await app?.close();
  await tracing?.shutdown();
});

const childrenOf = (parent: ReadableSpan, spans: ReadableSpan[]) =>
  spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

describe("traces", () => {
  it("a request's span carries its request id; its database queries and upstream call are its children", async () => {
    const { key } = await app.newKey({ tenant: ACME_TENANT });
    upstreamAnswers(answer());
    exporter.reset();
    const res = await app.request("/v1/messages", {
      method: "POST",
      key,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "FHA?", user: { external_user_id: "lo-1" } }),
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id");

    let spans: ReadableSpan[] = [];
    await expect
      .poll(() => (spans = exporter.getFinishedSpans()).filter((span) => span.kind === SpanKind.SERVER).length)
      .toBe(1);
    const request = spans.find((span) => span.kind === SpanKind.SERVER) as ReadableSpan;
    expect(request.attributes["mga.request_id"]).toBe(requestId);
    expect(request.name).toBe("POST /v1/messages");
    expect(request.attributes["http.route"]).toBe("/v1/messages");
    expect(request.attributes["http.response.status_code"]).toBe(200);
    expect(request.parentSpanContext).toBeUndefined();

    const children = childrenOf(request, spans);
    const queries = children.filter((span) => span.name === "db.query");
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.kind).toBe(SpanKind.CLIENT);
      expect(query.attributes["db.system.name"]).toBe("postgresql");
      expect(query.spanContext().traceId).toBe(request.spanContext().traceId);
    }
    const upstream = children.filter((span) => span.name === "upstream.chat");
    expect(upstream).toHaveLength(1);
    expect(upstream[0]?.attributes["mga.upstream.outcome"]).toBe("completed");
    // Its trace id is on the request's log line too.
    const line = app.logs
      .map((entry) => JSON.parse(entry) as Record<string, unknown>)
      .find((entry) => entry.message === "request" && entry.request_id === requestId);
    expect(line?.trace_id).toBe(request.spanContext().traceId);
  });

  it("a job run is a span of its own, the parent of its queries, and is counted", { timeout: 60_000 }, async () => {
    const partner = await newPartner(app);
    expect((await partner.put("/users/lo-9", { email: "lo9@acme.test", name: "Before" })).status).toBeLessThan(300);
    exporter.reset();
    expect(
      (
        await partner.post("/users/lo-9/profile-changes", { name: "After" }, undefined, {
          "Idempotency-Key": "rename-lo-9",
        })
      ).status,
    ).toBe(202);
    let job: ReadableSpan | undefined;
    await expect
      .poll(() => (job = exporter.getFinishedSpans().find((span) => span.name === "job partner-user-lifecycle")), {
        timeout: 30_000,
        interval: 250,
      })
      .toBeDefined();
    const spans = exporter.getFinishedSpans();
    expect(job?.kind).toBe(SpanKind.CONSUMER);
    expect(childrenOf(job as ReadableSpan, spans).filter((span) => span.name === "db.query").length).toBeGreaterThan(0);
    const runs = (await app.metrics.jobRuns.get()).values.filter(
      (value) => value.labels.queue === "partner-user-lifecycle" && value.labels.outcome === "completed",
    );
    expect(runs[0]?.value).toBeGreaterThanOrEqual(1);
  });

  it("continues the caller's trace from its traceparent header", async () => {
    exporter.reset();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const res = await fetch(`${app.baseUrl}/healthz`, {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(res.status).toBe(200);
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(1);
    const [span] = exporter.getFinishedSpans();
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
  });
});
