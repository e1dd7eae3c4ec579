import { describe, expect, it } from "vitest";

import { createApiKey } from "@mga/core/keys";
import { flushUsage } from "@mga/core/usage";
import { ApiError, Client } from "@mga/sdk";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope, type TestApp } from "../support/test-app";
import type { UntypedJson } from "../support/untyped-json";
import { answer, readSse, upstreamAnswers, upstreamStatus, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * Usage and the request log (issue 26) over real HTTP, with two instances on one PostgreSQL:
 * each instance buffers its own requests in memory and flushes them with additive upserts, so
 * the counts read back are exact whichever instance served each request.
 */
const setup = useAppWithMockedUpstream({ secondInstance: true });

const user = { external_user_id: "lo-usage" };

/** Both instances write what they have buffered (as the 5 s timer or a shutdown would). */
async function flushBoth() {
  await flushUsage(setup.app.t.db);
  await flushUsage(setup.second.t.db);
}

async function post(app: TestApp, path: string, key: string, body: unknown) {
  return app.request(path, {
    method: "POST",
    key,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function streamed(app: TestApp, key: string) {
  const res = await fetch(`${app.baseUrl}/v1/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ message: "Down payment?", user, stream: true }),
  });
  expect(res.status).toBe(200);
  const { frames } = await readSse(res);
  return { requestId: res.headers.get("x-request-id") ?? "", frames };
}

describe("usage: GET /v1/usage", () => {
  describe("happy", () => {
    it(
      "counts requests, answers, tokens, upstream errors and refusals exactly, per route group and status class",
      { timeout: 60_000 },
      async () => {
        const {
          key,
          id: keyId,
          organizationId,
        } = await setup.app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read", "chat:write"] });
        const instances = [setup.app, setup.second];
        upstreamAnswers(answer());
        // 20 × GET /v1/me, alternating instances.
        const meIds: string[] = [];
        for (let i = 0; i < 20; i += 1) {
          const res = await instances[i % 2]!.request("/v1/me", { key });
          expect(res.status).toBe(200);
          meIds.push(res.headers.get("x-request-id") ?? "");
        }
        // 2 JSON answers and 2 streamed answers, one of each per instance (42 tokens each).
        const jsonAnswers: Array<Awaited<ReturnType<typeof post>>> = [];
        for (const app of instances)
          jsonAnswers.push(await post(app, "/v1/messages", key, { message: "Down payment?", user }));
        for (const res of jsonAnswers) expect(res.status).toBe(200);
        for (const app of instances) await streamed(app, key);
        // 3 upstream failures (502), split over the instances.
        upstreamStatus(500);
        for (const app of [setup.app, setup.second, setup.app])
          expectEnvelope(await post(app, "/v1/messages", key, { message: "again", user }), 502, "upstream_error");
        // 2 refusals for scope (sources:read missing), 1 with an unknown key (no usage: the key is not known).
        for (const app of instances) expectEnvelope(await app.request("/v1/sources", { key }), 403, "forbidden");
        const unauthorized = await setup.second.request("/v1/me", { key: "mga_sk_notakey" });
        expect(unauthorized.status).toBe(401);

        await flushBoth();
        const usage = await setup.second.request("/v1/usage?days=2", { key });
        expect(usage.status).toBe(200);
        const totals = usage.body.totals;
        expect(totals).toEqual({
          requests: 29,
          streamed_answers: 2,
          json_answers: 2,
          tokens_used: 4 * 42,
          upstream_errors: 3,
          rate_limited: 0,
          by_route_group: { keys: 20, conversations: 7, sources: 2 },
          by_status_class: { "2xx": 24, "3xx": 0, "4xx": 2, "5xx": 3 },
        });
        expect(usage.body.days).toHaveLength(2);
        expect(usage.body.days[1].requests).toBe(29);
        expect(usage.body.days[0].requests).toBe(0);

        // The request log has every request, with its route template, never a raw path or body.
        const { rows } = await setup.app.t.db.sql.query<{
          request_id: string;
          api_key_id: string;
          organization_id: string;
          route: string;
          status: number;
          error_code: string | null;
          resource_id: string | null;
        }>(
          `SELECT request_id, api_key_id, organization_id, route, status, error_code, resource_id FROM request_log WHERE api_key_id = $1`,
          [keyId],
        );
        expect(rows).toHaveLength(29);
        expect(new Set(rows.map((row) => row.request_id))).toEqual(
          new Set([...meIds, ...rows.filter((row) => row.route !== "GET /v1/me").map((row) => row.request_id)]),
        );
        expect(rows.every((row) => row.organization_id === organizationId)).toBe(true);
        expect(new Set(rows.map((row) => row.route))).toEqual(
          new Set(["GET /v1/me", "POST /v1/messages", "GET /v1/sources"]),
        );
        const answered = rows.find((row) => row.request_id === jsonAnswers[0]!.headers.get("x-request-id"));
        expect(answered?.resource_id).toBe(jsonAnswers[0]!.body.conversation_id);
        expect(rows.filter((row) => row.error_code === "upstream_error")).toHaveLength(3);
        expect(rows.filter((row) => row.error_code === "forbidden")).toHaveLength(2);
        const refused = await setup.app.t.db.sql.query(
          `SELECT api_key_id, route, status, error_code FROM request_log WHERE request_id = $1`,
          [unauthorized.headers.get("x-request-id")],
        );
        expect(refused.rows).toEqual([
          { api_key_id: null, route: "GET /v1/me", status: 401, error_code: "unauthorized" },
        ]);
      },
    );

    it("counts rate-limited requests", { timeout: 30_000 }, async () => {
      const { key } = await setup.app.newKey({ rateLimitPerMinute: 1 });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await setup.app.request("/v1/me", { key })).status);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
      await flushBoth();
      const { rows } = await setup.app.t.db.sql.query<{ rate_limited: string; requests: string }>(
        `SELECT sum(rate_limited) AS rate_limited, sum(requests) AS requests FROM usage_daily u JOIN api_keys k ON k.id = u.api_key_id WHERE k.id IN (SELECT id FROM api_keys WHERE rate_limit_per_minute = 1)`,
      );
      expect(Number(rows[0]!.requests)).toBe(3);
      expect(Number(rows[0]!.rate_limited)).toBe(statuses.filter((status) => status === 429).length);
    });

    it("is in the SDK: client.usage.get", async () => {
      const { key } = await setup.app.newKey({ scopes: ["chat:read"] });
      for (let i = 0; i < 2; i += 1) await setup.app.request("/v1/me", { key });
      await flushBoth();
      const client = new Client({ apiKey: key, baseUrl: setup.app.baseUrl });
      const usage = await client.usage.get({ days: 7 });
      expect(usage.days).toHaveLength(7);
      expect(usage.totals.requests).toBe(2);
      expect(usage.totals.by_route_group).toEqual({ keys: 2 });
      await expect(client.usage.get({ from: "2026-02-30" })).rejects.toBeInstanceOf(ApiError);
    });
  });

  describe("errors", () => {
    it("needs chat:read, and refuses bad ranges with 400", async () => {
      const { key: writer } = await setup.app.newKey({ scopes: ["chat:write"] });
      expect(expectEnvelope(await setup.app.request("/v1/usage", { key: writer }), 403, "forbidden").message).toContain(
        "chat:read",
      );
      const { key } = await setup.app.newKey({ scopes: ["chat:read"] });
      const cases: Array<[string, string]> = [
        ["?from=2026-02-30", "from"],
        ["?from=2026-11-26&to=2026-11-01", "from"],
        ["?from=2020-01-01&to=2026-01-01", "from"],
        ["?to=yesterday", "to"],
        ["?days=0", "days"],
        ["?days=401", "days"],
        ["?verbose=1", "verbose"],
      ];
      for (const [query, field] of cases) {
        const error = expectEnvelope(await setup.app.request(`/v1/usage${query}`, { key }), 400, "invalid_request");
        expect(error.message, query).toContain(field);
      }
      const fixed = await setup.app.request("/v1/usage?from=2026-01-01&to=2026-01-31", { key });
      expect(fixed.status).toBe(200);
      expect((fixed.body.days as UntypedJson[]).map((day) => day.date)).toHaveLength(31);
    });
  });

  describe("security", () => {
    it("reads the key's own organization only: another organization's usage and keys stay invisible", async () => {
      const busy = await setup.app.newKey();
      for (let i = 0; i < 3; i += 1) await setup.app.request("/v1/me", { key: busy.key });
      const quiet = await setup.app.newKey();
      // A second key of the busy organization sees the organization's usage; key_id narrows it.
      const { plaintext: sibling } = await createApiKey(setup.app.t.db, {
        organizationId: busy.organizationId,
        name: "reader",
        scopes: ["chat:read"],
      });
      await flushBoth();
      const own = await setup.app.request("/v1/usage", { key: sibling });
      expect(own.body.totals.requests).toBe(3);
      const narrowed = await setup.app.request(`/v1/usage?key_id=${busy.id}`, { key: sibling });
      expect(narrowed.body.totals.requests).toBe(3);
      const other = await setup.app.request("/v1/usage", { key: quiet.key });
      expect(other.body.totals.requests).toBe(0);
      const foreignKey = await setup.app.request(`/v1/usage?key_id=${busy.id}`, { key: quiet.key });
      expect(foreignKey.status).toBe(200);
      expect(foreignKey.body.totals.requests).toBe(0);
    });
  });
});
