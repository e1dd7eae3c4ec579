import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { ApiError } from "../src/index";
import { BASE, envelope, testClient, useMockApi } from "./support/mock-api";

const { server, requests } = useMockApi();
const me = { request_id: "req_1", key: { id: "key_1", name: "k", status: "active", scopes: [], last_four: "abcd", client: { name: "Acme" } } };
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
    server.use(http.get(`${BASE}/v1/me`, () => HttpResponse.json(envelope("upstream_error", "The assistant is unavailable", "req_9"), { status: 502 })));
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
          () => HttpResponse.json(envelope("idempotency_conflict", "still in progress"), { status: 409, headers: { "Retry-After": "1" } }),
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
      .imports.create({ users: [{ external_user_id: "u1", email: "u1@example.test" }] }, { idempotencyKey: "import-batch-7" });
    expect(requests.map((r) => r.headers.get("idempotency-key"))).toEqual(["import-batch-7", "import-batch-7"]);
  });

  it("never retries a 502 of a POST without an Idempotency-Key (a streamed message)", async () => {
    server.use(http.post(`${BASE}/v1/messages`, () => HttpResponse.json(envelope("upstream_error", "down"), { status: 502 })));
    await expect(testClient().messages.stream({ message: "hi", user })).rejects.toMatchObject({ status: 502, code: "upstream_error" });
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
          () => HttpResponse.json(envelope("rate_limited", "slow down"), { status: 429, headers: { "Retry-After": "1" } }),
          () => new HttpResponse('data: {"type":"public_api_complete","request_id":"r","conversation_id":"c","message_id":"m"}\n\n', { headers: { "Content-Type": "text/event-stream" } }),
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
    server.use(http.get(`${BASE}/v1/me`, () => HttpResponse.json(envelope("rate_limited", "slow down", "req_429"), { status: 429, headers: { "Retry-After": "120" } })));
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
