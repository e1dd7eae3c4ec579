import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpChatUpstream } from "@mga/core/conversations";

import { ACME_TENANT } from "../support/tenants";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * A client that goes away is not a failure of the service: it is logged once at info, with
 * the request id and no stack trace, and nothing at error (issue 14). Real sockets, and a real
 * upstream that starts an answer and then stalls, so only the disconnect ends each request.
 */
let upstream: Server;
let upstreamCalls = 0;
let app: TestApp;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    upstreamCalls += 1;
    req.resume();
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write(`data: ${JSON.stringify({ type: "content", content: "thinking" })}\n\n`);
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  app = await startTestApp({ upstream: new HttpChatUpstream({ url, idleTimeoutMs: 30_000 }) });
});
afterAll(async () => {
  upstream.closeAllConnections();
  upstream.close();
  await app.close();
});

interface LogLine {
  level: string;
  message: string;
  request_id?: string;
  [field: string]: unknown;
}

function open(key: string, headers: Record<string, string> = {}) {
  const req = request(`${app.baseUrl}/v1/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...headers },
  });
  req.on("error", () => {});
  return req;
}

/** The log lines of one request, once its disconnect has been logged. */
async function linesOf(requestId: () => string | undefined): Promise<LogLine[]> {
  const lines = () =>
    app.logs
      .map((text) => JSON.parse(text) as LogLine)
      .filter((line) => requestId() !== undefined && line.request_id === requestId());
  await expect
    .poll(() => lines().some((line) => line.message === "client disconnected"), { timeout: 3_000 })
    .toBe(true);
  // Whatever else the request was going to log has had time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return lines();
}

function expectDisconnectAtInfo(lines: LogLine[]) {
  expect(lines.filter((line) => line.level === "error" || line.level === "warn")).toEqual([]);
  const disconnect = lines.filter((line) => line.message === "client disconnected");
  expect(disconnect).toHaveLength(1);
  expect(disconnect[0]?.level).toBe("info");
  expect(JSON.stringify(disconnect[0])).not.toMatch(/\n\s+at |stack/);
}

describe("a client that disconnects", () => {
  it("during a streamed answer is logged at info, without a stack trace", async () => {
    const { key } = await app.newKey({ tenant: ACME_TENANT });
    const req = open(key);
    req.end(JSON.stringify({ stream: true, message: "hi", user: { external_user_id: "u" } }));
    const res = await new Promise<IncomingMessage>((resolve) => req.on("response", resolve));
    const requestId = res.headers["x-request-id"] as string;
    await new Promise((resolve) => res.once("data", resolve));
    req.destroy();
    expectDisconnectAtInfo(await linesOf(() => requestId));
  });

  it("while a JSON answer is awaited is logged at info, without a stack trace", async () => {
    const { key } = await app.newKey({ tenant: ACME_TENANT });
    const before = app.logs.length;
    const calls = upstreamCalls;
    const req = open(key);
    req.end(JSON.stringify({ message: "hi", user: { external_user_id: "u" } }));
    await expect.poll(() => upstreamCalls, { timeout: 3_000 }).toBe(calls + 1);
    req.destroy();
    // No response ever comes, so the request id is read from the disconnect's own line.
    const requestId = () => disconnectedRequestId(before);
    expectDisconnectAtInfo(await linesOf(requestId));
  });

  it("in the middle of its request body is logged at info, without a stack trace", async () => {
    const { key } = await app.newKey({ tenant: ACME_TENANT });
    const before = app.logs.length;
    const req = open(key, { "Content-Length": "1000" });
    req.write('{"message":"hi"');
    await new Promise((resolve) => setTimeout(resolve, 200));
    req.destroy();
    const requestId = () => disconnectedRequestId(before);
    expectDisconnectAtInfo(await linesOf(requestId));
  });
});

/** The request id of the first "client disconnected" line logged since `before`. */
function disconnectedRequestId(before: number): string | undefined {
  return app.logs
    .slice(before)
    .map((text) => JSON.parse(text) as LogLine)
    .find((line) => line.message === "client disconnected")?.request_id;
}
