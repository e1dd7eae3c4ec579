import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * GET /healthz (alive) and GET /readyz (should get traffic) on both listeners, for a load
 * balancer (issue 26): not ready while draining, without the database, or without the job queue.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

describe("GET /healthz and GET /readyz", () => {
  it("answer on both listeners: alive, and ready with every check passed", async () => {
    for (const base of [app.baseUrl, app.adminUrl]) {
      const health = await get(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: "ok", request_id: health.headers.get("x-request-id") });
      const ready = await get(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({
        status: "ready",
        checks: { draining: "no", database: "ok", migrations: "ok", job_queue: "ok" },
        request_id: ready.headers.get("x-request-id"),
      });
      expect(ready.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("is not ready while draining, yet alive; other requests get 503", async () => {
    app.setDraining(true);
    try {
      for (const base of [app.baseUrl, app.adminUrl]) {
        const ready = await get(`${base}/readyz`);
        expect(ready.status).toBe(503);
        expect(ready.body).toMatchObject({
          status: "not_ready",
          checks: { draining: "yes", database: "ok", migrations: "ok", job_queue: "ok" },
        });
        expect((await get(`${base}/healthz`)).status).toBe(200);
      }
      expect((await fetch(`${app.baseUrl}/v1/me`)).status).toBe(503);
    } finally {
      app.setDraining(false);
    }
    expect((await get(`${app.baseUrl}/readyz`)).status).toBe(200);
  });

  it("is not ready when the database is unreachable, nor when the job queue has stopped", async () => {
    const proxy: TcpProxy = await startTcpProxy(app.t.url);
    const second = await startTestApp({
      shareDatabaseWith: app,
      databaseUrlVia: (url) => proxy.via(url),
      workers: false,
    });
    try {
      expect((await get(`${second.baseUrl}/readyz`)).status).toBe(200);
      await proxy.cut();
      for (const base of [second.baseUrl, second.adminUrl]) {
        const ready = await get(`${base}/readyz`);
        expect(ready.status).toBe(503);
        expect(ready.body).toMatchObject({
          status: "not_ready",
          checks: { draining: "no", database: "unreachable", job_queue: "ok" },
        });
        // Alive all the same: restarting the process would not bring the database back.
        expect((await get(`${base}/healthz`)).status).toBe(200);
      }
      await second.queue.stop();
      expect((await get(`${second.baseUrl}/readyz`)).body).toMatchObject({ checks: { job_queue: "stopped" } });
    } finally {
      await second.close().catch(() => {});
    }
  });
});
