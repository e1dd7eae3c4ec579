import { describe, expect, it } from "vitest";

import { histogramCount, samples, scrapeMetrics, valueOf } from "../support/scrape-metrics";
import { ACME_TENANT } from "../support/tenants";
import { answer, readSse, upstreamAnswers, upstreamStatus, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * GET /metrics (issue 26): the admin listener's Prometheus text, read back with a real
 * text-format parser after requests whose effects are known exactly. The test app has a
 * registry of its own, so the counts are this file's requests and nothing else.
 */
const setup = useAppWithMockedUpstream();
const json = { "Content-Type": "application/json" };
const user = { external_user_id: "lo-1" };

describe("GET /metrics", () => {
  it("counts requests by listener, method, route template and status, and times them", async () => {
    const { app } = setup;
    for (let i = 0; i < 2; i += 1) expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
    const { key } = await app.newKey();
    for (let i = 0; i < 3; i += 1) expect((await app.request("/v1/me", { key })).status).toBe(200);
    expect((await app.request("/v1/me")).status).toBe(401);
    // Two ids, one route: the template, never the path as sent.
    expect((await app.request("/v1/conversations/conv_doesnotexist1", { key })).status).toBe(404);
    expect((await app.request("/v1/conversations/conv_doesnotexist2", { key })).status).toBe(404);
    // A path no route has: one "unmatched" series, whatever a scanner tries.
    expect((await fetch(`${app.baseUrl}/wp-admin/setup.php`)).status).toBe(404);
    expect((await fetch(`${app.baseUrl}/.env`)).status).toBe(404);

    const metrics = await scrapeMetrics(app.adminUrl);
    const requests = (labels: Record<string, string>) =>
      valueOf(metrics, "mga_http_requests_total", { listener: "public", method: "GET", ...labels });
    expect(requests({ route: "/healthz", status: "200" })).toBe(2);
    expect(requests({ route: "/v1/me", status: "200" })).toBe(3);
    expect(requests({ route: "/v1/me", status: "401" })).toBe(1);
    expect(requests({ route: "/v1/conversations/{conversationId}", status: "404" })).toBe(2);
    expect(requests({ route: "unmatched", status: "404" })).toBe(2);
    const routes = new Set(samples(metrics, "mga_http_requests_total").map((sample) => sample.labels?.route));
    for (const raw of ["/v1/conversations/conv_doesnotexist1", "/wp-admin/setup.php", "/.env"])
      expect(routes.has(raw)).toBe(false);

    expect(samples(metrics, "mga_http_request_duration_seconds")).not.toHaveLength(0);
    expect(
      await histogramCount(app.metrics.httpDuration, {
        listener: "public",
        method: "GET",
        route: "/v1/me",
        status: "200",
      }),
    ).toBe(3);

    // The scrape itself is counted once it has ended: the next scrape shows it, on the admin listener.
    const next = await scrapeMetrics(app.adminUrl);
    expect(
      valueOf(next, "mga_http_requests_total", { listener: "admin", method: "GET", route: "/metrics", status: "200" }),
    ).toBe(1);
    // Process metrics come with them.
    expect(samples(next, "process_cpu_user_seconds_total")).toHaveLength(1);
    expect(samples(next, "nodejs_heap_size_used_bytes")).toHaveLength(1);
  });

  it("counts key-cache hits and misses and rate-limit refusals", async () => {
    const { app } = setup;
    const before = await scrapeMetrics(app.adminUrl);
    const { key } = await app.newKey();
    const limited = await app.newKey({ rateLimitPerMinute: 1 });
    for (let i = 0; i < 3; i += 1) expect((await app.request("/v1/me", { key })).status).toBe(200);
    expect((await app.request("/v1/me", { key: limited.key })).status).toBe(200);
    expect((await app.request("/v1/me", { key: limited.key })).status).toBe(429);

    const after = await scrapeMetrics(app.adminUrl);
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    // Each key is read once, then answered from memory.
    expect(delta("mga_key_cache_lookups_total", { outcome: "miss" })).toBe(2);
    expect(delta("mga_key_cache_lookups_total", { outcome: "hit" })).toBe(3);
    expect(delta("mga_rate_limit_refusals_total", { policy: "per-key" })).toBe(1);
    expect(delta("mga_rate_limit_refusals_total", { policy: "per-user" })).toBe(0);
  });

  it("shows open event streams, upstream calls by outcome and upstream errors", async () => {
    const { app } = setup;
    const before = await scrapeMetrics(app.adminUrl);
    const upstreamCalls = (outcome: string) => histogramCount(app.metrics.upstreamDuration, { outcome });
    const [completedBefore, failedBefore] = [await upstreamCalls("completed"), await upstreamCalls("http_status")];
    const { key } = await app.newKey({ tenant: ACME_TENANT });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    upstreamAnswers([
      { event: { type: "content", content: "FHA " } },
      { waitFor: held },
      ...answer("requires 3.5 percent down."),
    ]);
    const stream = await fetch(`${app.baseUrl}/v1/messages`, {
      method: "POST",
      headers: { ...json, Authorization: `Bearer ${key}` },
      body: JSON.stringify({ message: "FHA?", user, stream: true }),
    });
    expect(stream.status).toBe(200);
    await expect.poll(async () => valueOf(await scrapeMetrics(app.adminUrl), "mga_sse_streams_open")).toBe(1);
    release();
    await readSse(stream);
    await expect.poll(async () => valueOf(await scrapeMetrics(app.adminUrl), "mga_sse_streams_open")).toBe(0);

    upstreamStatus(500);
    expect(
      (
        await app.request("/v1/messages", {
          method: "POST",
          key,
          headers: json,
          body: JSON.stringify({ message: "again?", user }),
        })
      ).status,
    ).toBe(502);

    const after = await scrapeMetrics(app.adminUrl);
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect((await upstreamCalls("completed")) - completedBefore).toBe(1);
    expect((await upstreamCalls("http_status")) - failedBefore).toBe(1);
    expect(delta("mga_upstream_errors_total", { reason: "http_status" })).toBe(1);
    expect(
      valueOf(after, "mga_http_requests_total", {
        listener: "public",
        method: "POST",
        route: "/v1/messages",
        status: "200",
      }),
    ).toBe(1);
  });

  it("reports the database pool's use and the job queues' depth", async () => {
    const metrics = await scrapeMetrics(setup.app.adminUrl);
    expect(valueOf(metrics, "mga_db_pool_connections", { state: "max" })).toBe(5);
    expect(valueOf(metrics, "mga_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
    expect(valueOf(metrics, "mga_db_pool_connections", { state: "waiting" })).toBe(0);
    const queues = new Set(
      samples(metrics, "mga_job_queue_jobs", { state: "ready" }).map((sample) => sample.labels?.queue),
    );
    expect([...queues].sort()).toEqual([
      "partner-user-import",
      "partner-user-lifecycle",
      "partner-user-provisioning",
      "partner-user-site-account",
      "webhook-delivery",
    ]);
  });

  it("is on the admin listener only: the public one has no /metrics, and the admin's answers GET alone", async () => {
    const { app } = setup;
    const publicMetrics = await fetch(`${app.baseUrl}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(await publicMetrics.text()).not.toContain("mga_http_requests_total");
    const post = await fetch(`${app.adminUrl}/metrics`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("logs", () => {
  it("stay JSON lines, each line written while requests are served carrying the request id of one of them", async () => {
    const { app } = setup;
    const { key } = await app.newKey({ tenant: ACME_TENANT });
    const from = app.logs.length;
    upstreamStatus(500);
    const ids = [
      await app.request("/v1/messages", {
        method: "POST",
        key,
        headers: json,
        body: JSON.stringify({ message: "FHA?", user }),
      }),
      await app.request("/v1/me", { key }),
      await app.request("/v1/nothing-here", { key }),
    ].map((res) => res.headers.get("x-request-id"));
    const lines = app.logs.slice(from).map((line) => JSON.parse(line) as { request_id?: string });
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(ids).toContain(line.request_id);
  });
});
