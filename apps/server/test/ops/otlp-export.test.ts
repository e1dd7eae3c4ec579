import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestDatabase, type TestDatabase } from "@mga/core/testing";

import { startServerProcess } from "../support/server-process";

/**
 * The built server with OTEL_EXPORTER_OTLP_ENDPOINT set sends its spans over OTLP/HTTP to that
 * collector (here a plain HTTP server that keeps what it is sent), the last ones at SIGTERM.
 */
let t: TestDatabase;
let collector: Server;
let collectorUrl: string;
const received: Array<{ path: string; contentType: string; body: string }> = [];
beforeAll(async () => {
  t = await createTestDatabase();
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        path: req.url ?? "",
        contentType: req.headers["content-type"] ?? "",
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => collector?.close(resolve));
  await t?.drop();
});

describe("OTLP export", () => {
  it("sends the request spans, with their request ids, to the configured collector", { timeout: 90_000 }, async () => {
    const server = await startServerProcess({
      databaseUrl: t.url,
      upstreamUrl: "http://127.0.0.1:9",
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_SERVICE_NAME: "mga-otlp-test" },
    });
    expect(server.logs.some((line) => line.includes('"tracing":"OTEL_EXPORTER_OTLP_ENDPOINT"'))).toBe(true);
    const res = await fetch(`${server.baseUrl}/readyz`);
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id") as string;
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const traces = received.filter((request) => request.path === "/v1/traces");
    expect(traces.length).toBeGreaterThan(0);
    const exported = traces.map((request) => request.body).join("\n");
    expect(exported).toContain(requestId);
    expect(exported).toContain("mga-otlp-test");
    expect(exported).toContain("GET /readyz");
  });
});
