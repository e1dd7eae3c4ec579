import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";

import { ApiConnectionError, ApiError, Client, MgaError, type RetryEvent } from "../src/index";
import { BASE, envelope, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();
const me = {
  request_id: "req_1",
  key: { id: "key_1", name: "k", status: "active", scopes: [], last_four: "abcd", client: { name: "Acme" } },
};
const user = { external_user_id: "lo-1" };

/** Answers with each of these in turn, then with the last one. */
function answers(...responses: Array<() => Response>) {
  let call = 0;
  return () => responses[Math.min(call++, responses.length - 1)]!();
}

describe("retries", () => {
  it("retries a GET after 502 and 503, then returns the answer", async () => {
    server.use(
      http.get(
        `${BASE}/v1/me`,
        answers(
          () => HttpResponse.json(envelope("upstream_error", "x"), { status: 502 }),
          () => new HttpResponse("busy", { status: 503 }),
          () => HttpResponse.json(me),
        ),
      ),
    );
    expect(await testClient().me.get()).toEqual(me);
    expect(requests).toHaveLength(3);
  });

  it("retries a GET after a network error", async () => {
    server.use(
      http.get(
        `${BASE}/v1/me`,
        answers(
          () => HttpResponse.error(),
          () => HttpResponse.json(me),
        ),
      ),
    );
    expect(await testClient().me.get()).toEqual(me);
    expect(requests).toHaveLength(2);
  });

  it("stops at maxRetries and throws the last answer as an ApiError", async () => {
    server.use(
      http.get(`${BASE}/v1/me`, () =>
        HttpResponse.json(envelope("upstream_error", "The assistant is unavailable", "req_9"), { status: 502 }),
      ),
    );
    const error = await testClient({ retry: { maxRetries: 3 } })
      .me.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: "upstream_error", requestId: "req_9" });
    expect(requests).toHaveLength(4);
  });

  it("does not retry with maxRetries 0", async () => {
    server.use(http.get(`${BASE}/v1/me`, () => new HttpResponse(null, { status: 503 })));
    await expect(testClient({ retry: { maxRetries: 0 } }).me.get()).rejects.toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(1);
  });

  it("sends the same generated Idempotency-Key (a UUID v4) on every retry of one POST, and a new one for the next call", async () => {
    server.use(
      http.post(
        `${BASE}/v1/conversations`,
        answers(
          () => new HttpResponse(null, { status: 502 }),
          () => HttpResponse.error(),
          () => HttpResponse.json({ request_id: "r", conversation_id: "c1" }, { status: 201 }),
        ),
      ),
    );
    const client = testClient();
    expect(await client.conversations.create({ user })).toEqual({ request_id: "r", conversation_id: "c1" });
    const keys = requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await Promise.all(requests.map((r) => r.json()))).toEqual([{ user }, { user }, { user }]);
    await client.conversations.create({ user });
    expect(requests[3]!.headers.get("idempotency-key")).not.toBe(keys[0]);
  });

  it("waits for a key whose first request is still running (409 with Retry-After), with the same key", async () => {
    server.use(
      http.post(
        `${BASE}/v1/conversations`,
        answers(
          () =>
            HttpResponse.json(envelope("idempotency_conflict", "still in progress"), {
              status: 409,
              headers: { "Retry-After": "1" },
            }),
          () => HttpResponse.json({ request_id: "r", conversation_id: "c1" }, { status: 201 }),
        ),
      ),
    );
    expect(await testClient().conversations.create({ user })).toEqual({ request_id: "r", conversation_id: "c1" });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers.get("idempotency-key")).toBe(requests[0]!.headers.get("idempotency-key"));
  });

  it("uses the caller's Idempotency-Key when given", async () => {
    server.use(
      http.post(
        `${BASE}/v1/integrations/acme/user-imports`,
        answers(
          () => new HttpResponse(null, { status: 503 }),
          () => HttpResponse.json({}, { status: 202 }),
        ),
      ),
    );
    await testClient()
      .integration("acme")
      .imports.create(
        { users: [{ external_user_id: "u1", email: "u1@example.test" }] },
        { idempotencyKey: "import-batch-7" },
      );
    expect(requests.map((r) => r.headers.get("idempotency-key"))).toEqual(["import-batch-7", "import-batch-7"]);
  });

  it("never retries a 502 of a POST without an Idempotency-Key (a streamed message)", async () => {
    server.use(
      http.post(`${BASE}/v1/messages`, () => HttpResponse.json(envelope("upstream_error", "down"), { status: 502 })),
    );
    await expect(testClient().messages.stream({ message: "hi", user })).rejects.toMatchObject({
      status: 502,
      code: "upstream_error",
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.has("idempotency-key")).toBe(false);
  });

  it("never retries a network error of a POST without an Idempotency-Key", async () => {
    server.use(http.post(`${BASE}/v1/messages`, () => HttpResponse.error()));
    await expect(testClient().messages.stream({ message: "hi", user })).rejects.toThrow();
    expect(requests).toHaveLength(1);
  });

  it("retries a 429 of any request after the Retry-After it names", async () => {
    server.use(
      http.post(
        `${BASE}/v1/messages`,
        answers(
          () =>
            HttpResponse.json(envelope("rate_limited", "slow down"), { status: 429, headers: { "Retry-After": "1" } }),
          () =>
            new HttpResponse(
              'data: {"type":"public_api_complete","request_id":"r","conversation_id":"c","message_id":"m"}\n\n',
              { headers: { "Content-Type": "text/event-stream" } },
            ),
        ),
      ),
    );
    const started = performance.now();
    const stream = await testClient({ retry: { initialDelayMs: 1 } }).messages.stream({ message: "hi", user });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect((await stream.finalAnswer()).messageId).toBe("m");
    expect(requests).toHaveLength(2);
  });

  it("hands back a 429 whose Retry-After is longer than maxDelayMs, with retryAfterSeconds", async () => {
    server.use(
      http.get(`${BASE}/v1/me`, () =>
        HttpResponse.json(envelope("rate_limited", "slow down", "req_429"), {
          status: 429,
          headers: { "Retry-After": "120" },
        }),
      ),
    );
    const error = await testClient({ retry: { maxDelayMs: 5_000 } })
      .me.get()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfterSeconds: 120, requestId: "req_429" });
    expect(requests).toHaveLength(1);
  });

  it("does not retry a refusal (400, 401, 404, 409)", async () => {
    for (const [status, code] of [
      [400, "invalid_request"],
      [401, "unauthorized"],
      [404, "not_found"],
      [409, "idempotency_conflict"],
    ] as const) {
      server.use(http.get(`${BASE}/v1/conversations/c1`, () => HttpResponse.json(envelope(code, "no"), { status })));
      await expect(testClient().conversations.get("c1")).rejects.toMatchObject({ status, code });
    }
    expect(requests).toHaveLength(4);
  });
});

describe("bounded, visible retries", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("by default a Retry-After beyond 10 s is not waited: a streamed message's 429 is thrown at once with retryAfterSeconds", async () => {
    server.use(
      http.post(`${BASE}/v1/messages`, () =>
        HttpResponse.json(envelope("rate_limited", "slow down", "req_27"), {
          status: 429,
          headers: { "Retry-After": "27" },
        }),
      ),
    );
    const started = performance.now();
    const error = await new Client({ apiKey: "mga_test_key", baseUrl: BASE }).messages
      .stream({ message: "hi", user })
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfterSeconds: 27, requestId: "req_27" });
    expect(requests).toHaveLength(1);
  });

  it("maxRetryDelayMs sets that cap: a Retry-After within it is waited, one beyond it is thrown at once", async () => {
    server.use(
      http.get(
        `${BASE}/v1/me`,
        answers(
          () =>
            HttpResponse.json(envelope("rate_limited", "slow down"), { status: 429, headers: { "Retry-After": "1" } }),
          () =>
            HttpResponse.json(envelope("rate_limited", "slow down", "req_2"), {
              status: 429,
              headers: { "Retry-After": "2" },
            }),
        ),
      ),
    );
    const error = await testClient({ maxRetryDelayMs: 1_500 })
      .me.get()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 2, requestId: "req_2" });
    expect(requests).toHaveLength(2);
  });

  it("maxRetries bounds the attempts: 2 retries by default, as many as asked, none with 0", async () => {
    server.use(http.get(`${BASE}/v1/me`, () => new HttpResponse(null, { status: 503 })));
    const attempts = async (options: { maxRetries?: number }) => {
      requests.length = 0;
      await expect(testClient(options).me.get()).rejects.toMatchObject({ status: 503 });
      return requests.length;
    };
    expect(await attempts({})).toBe(3);
    expect(await attempts({ maxRetries: 4 })).toBe(5);
    expect(await attempts({ maxRetries: 0 })).toBe(1);
  });

  it("the first release's `retry: { … }` still works, and the options of their own win over it", async () => {
    server.use(http.get(`${BASE}/v1/me`, () => new HttpResponse(null, { status: 503 })));
    await expect(testClient({ retry: { maxRetries: 1, initialDelayMs: 1 } }).me.get()).rejects.toMatchObject({
      status: 503,
    });
    expect(requests).toHaveLength(2);
    requests.length = 0;
    await expect(testClient({ retry: { maxRetries: 4 }, maxRetries: 0 }).me.get()).rejects.toMatchObject({
      status: 503,
    });
    expect(requests).toHaveLength(1);
  });

  it("refuses settings that would not be bounded", () => {
    for (const options of [
      { maxRetries: -1 },
      { maxRetries: 1.5 },
      { maxRetries: Infinity },
      { maxRetryDelayMs: Infinity },
      { maxRetryDelayMs: -1 },
      { initialRetryDelayMs: Number.NaN },
    ]) {
      expect(() => testClient(options)).toThrow(MgaError);
    }
  });

  it("onRetry is told each retry before its wait: which one, the delay, why (a status or the connection error), method and URL", async () => {
    server.use(
      http.get(
        `${BASE}/v1/me`,
        answers(
          () => new HttpResponse(null, { status: 503 }),
          () => HttpResponse.error(),
          () =>
            HttpResponse.json(envelope("rate_limited", "slow down"), { status: 429, headers: { "Retry-After": "1" } }),
          () => HttpResponse.json(me),
        ),
      ),
    );
    const events: RetryEvent[] = [];
    expect(await testClient({ maxRetries: 3, onRetry: (event) => events.push(event) }).me.get()).toEqual(me);
    expect(events).toEqual([
      { attempt: 1, delayMs: expect.any(Number), reason: 503, method: "GET", url: `${BASE}/v1/me` },
      {
        attempt: 2,
        delayMs: expect.any(Number),
        reason: expect.any(ApiConnectionError),
        method: "GET",
        url: `${BASE}/v1/me`,
      },
      { attempt: 3, delayMs: 1_000, reason: 429, method: "GET", url: `${BASE}/v1/me` },
    ]);
    // The back-off of the test client: a random wait up to 1 ms, then 2 ms.
    expect(events[0]!.delayMs).toBeLessThanOrEqual(1);
    expect(events[1]!.delayMs).toBeLessThanOrEqual(2);
  });

  it("MGA_LOG=debug logs each retry to console.debug; a logger passed gets the lines instead; otherwise nothing is logged", async () => {
    const retriedOnce = () =>
      server.use(
        http.get(
          `${BASE}/v1/me`,
          answers(
            () => new HttpResponse(null, { status: 503 }),
            () => HttpResponse.json(me),
          ),
        ),
      );
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {});

    retriedOnce();
    await testClient().me.get();
    expect(debug).not.toHaveBeenCalled();

    vi.stubEnv("MGA_LOG", "debug");
    retriedOnce();
    await testClient().me.get();
    expect(debug).toHaveBeenCalledTimes(1);
    expect(debug.mock.calls[0]).toEqual([
      expect.stringMatching(/^\[mga\] retry 1\/2 of GET http:\/\/api\.test\/v1\/me in \d+ ms after 503$/),
    ]);

    vi.unstubAllEnvs();
    const lines: string[] = [];
    retriedOnce();
    await testClient({ logger: { debug: (line: string) => lines.push(line) } }).me.get();
    expect(lines).toEqual([expect.stringMatching(/^\[mga\] retry 1\/2 of GET/)]);
    expect(debug).toHaveBeenCalledTimes(1);
  });
});
