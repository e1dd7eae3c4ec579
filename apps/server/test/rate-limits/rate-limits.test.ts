import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

/** Per-key limits counted in PostgreSQL: two server instances share one count. */
let app: TestApp;
let second: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  second = await startTestApp({ shareDatabaseWith: app });
});
afterAll(async () => {
  await second.close();
  await app.close();
});

describe("rate limits", () => {
  it("counts a key's requests across instances and answers 429 with Retry-After and RateLimit headers", async () => {
    // Start at the beginning of a minute window so the test never straddles two windows.
    const msIntoMinute = Date.now() % 60_000;
    if (msIntoMinute > 55_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - msIntoMinute));
    const { key } = await app.newKey({ rateLimitPerMinute: 3 });
    const first = await app.request("/v1/me", { key });
    expect(first.headers.get("ratelimit-policy")).toBe('"per-key";q=3;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"per-key";r=2;t=\d+$/);
    expect((await second.request("/v1/me", { key })).status).toBe(200);
    expect((await app.request("/v1/me", { key })).headers.get("x-ratelimit-remaining")).toBe("0");
    const limited = await second.request("/v1/me", { key });
    const error = expectEnvelope(limited, 429, "rate_limited");
    expect(error.message).toMatch(/3 requests per minute/);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit")).toBe(`"per-key";r=0;t=${retryAfter}`);

    // Another key is not affected.
    const other = await app.newKey({ rateLimitPerMinute: 3 });
    expect((await app.request("/v1/me", { key: other.key })).status).toBe(200);
  });

  it("applies the default limit to a key created without one", async () => {
    const { key } = await app.newKey();
    const res = await app.request("/v1/me", { key });
    expect(res.headers.get("ratelimit-policy")).toBe('"per-key";q=600;w=60');
  });

  it("counts a new window from zero", async () => {
    const { key, id } = await app.newKey({ rateLimitPerMinute: 1 });
    await app.request("/v1/me", { key });
    expectEnvelope(await app.request("/v1/me", { key }), 429, "rate_limited");
    // Move this key's counter into the past, as if the minute had passed.
    await app.t.db.sql.query(
      "UPDATE rate_limit_counters SET window_start = window_start - interval '1 minute' WHERE api_key_id = $1",
      [id],
    );
    expect((await app.request("/v1/me", { key })).status).toBe(200);
  });
});
