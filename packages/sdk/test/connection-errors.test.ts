import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { delay, http, HttpResponse, passthrough } from "msw";
import { afterEach, describe, expect, it } from "vitest";

import { ApiConnectionError, ApiTimeoutError, Client, type RetryEvent } from "../src/index";
import { closedPort } from "./support/closed-port";
import { BASE, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();
const user = { external_user_id: "lo-1" };

/** A real loopback server (msw lets its requests through), for what only sockets can do. */
let real: Server | undefined;
async function realServer(handler: Parameters<typeof createServer>[1]): Promise<string> {
  real = createServer(handler);
  await new Promise<void>((resolve) => real!.listen(0, "127.0.0.1", resolve));
  server.use(http.all("*", () => passthrough()));
  return `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
}
afterEach(async () => {
  real?.closeAllConnections();
  await new Promise((resolve) => (real ? real.close(resolve) : resolve(undefined)));
  real = undefined;
});

describe("connection errors", () => {
  it("a refused connection (a real closed port) is an ApiConnectionError naming the request, with the cause kept", async () => {
    server.use(http.all("*", () => passthrough()));
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const error = await new Client({ apiKey: "k", baseUrl, maxRetries: 0 }).me.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).not.toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ name: "ApiConnectionError", method: "GET", url: `${baseUrl}/v1/me` });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(String(error)).toMatch(/^ApiConnectionError: .*GET http:\/\/127\.0\.0\.1:\d+\/v1\/me.*ECONNREFUSED/);
  });

  it("a refused connection is retried while safe (a GET), each retry told to onRetry, then thrown", async () => {
    server.use(http.all("*", () => passthrough()));
    const events: RetryEvent[] = [];
    const client = new Client({
      apiKey: "k",
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      initialRetryDelayMs: 1,
      onRetry: (event) => events.push(event),
    });
    await expect(client.me.get()).rejects.toBeInstanceOf(ApiConnectionError);
    expect(events.map((event) => [event.attempt, event.reason instanceof ApiConnectionError])).toEqual([
      [1, true],
      [2, true],
    ]);
  });

  it("a streamed message whose connection is refused throws ApiConnectionError from stream(), without a retry", async () => {
    server.use(http.all("*", () => passthrough()));
    const events: RetryEvent[] = [];
    const client = new Client({
      apiKey: "k",
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      onRetry: (event) => events.push(event),
    });
    await expect(client.messages.stream({ message: "hi", user })).rejects.toBeInstanceOf(ApiConnectionError);
    expect(events).toEqual([]);
  });

  it("no answer within timeoutMs is an ApiTimeoutError (an ApiConnectionError) naming the limit", async () => {
    server.use(
      http.get(`${BASE}/v1/me`, async () => {
        await delay(5_000);
        return HttpResponse.json({});
      }),
    );
    const error = await testClient({ timeoutMs: 50, maxRetries: 0 })
      .me.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({ name: "ApiTimeoutError", timeoutMs: 50, method: "GET", url: `${BASE}/v1/me` });
    expect(String(error)).toMatch(/^ApiTimeoutError: .*GET http:\/\/api\.test\/v1\/me.* 50 ms/);
  });

  it("a body still arriving when timeoutMs passes is an ApiTimeoutError too, and retried like one", async () => {
    let attempts = 0;
    const baseUrl = await realServer((_req, res) => {
      attempts++;
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"request_id":');
      // The rest never comes.
    });
    const error = await new Client({ apiKey: "k", baseUrl, timeoutMs: 200, maxRetries: 1, initialRetryDelayMs: 1 }).me
      .get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(attempts).toBe(2);
  });

  it("a connection reset while a JSON body arrives is an ApiConnectionError", async () => {
    const baseUrl = await realServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"request_id":', () => res.destroy());
    });
    const error = await new Client({ apiKey: "k", baseUrl, maxRetries: 0 }).me.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).not.toBeInstanceOf(ApiTimeoutError);
  });

  it("a connection reset midway through a stream is an ApiConnectionError from the loop, after the frames before it", async () => {
    const baseUrl = await realServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ type: "content", content: "FHA needs" })}\n\n`, () =>
        setTimeout(() => res.destroy(), 50),
      );
    });
    const stream = await new Client({ apiKey: "k", baseUrl }).messages.stream({ message: "hi", user });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const frame of stream) seen.push(frame.type);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["content"]);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({ method: "POST", url: `${baseUrl}/v1/messages` });
  });

  it("the caller's own abort is thrown as it is (an AbortError), not as a connection error, and not retried", async () => {
    server.use(
      http.get(`${BASE}/v1/me`, async () => {
        await delay(5_000);
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const call = testClient().me.get({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AbortError" });
    expect(error).not.toBeInstanceOf(ApiConnectionError);
    expect(requests).toHaveLength(1);
  });
});
