import { describe, expect, it } from "vitest";

import { revokeApiKey, setApiKeyRateLimit } from "@mga/core/keys";

import { expectEnvelope, startTestApp } from "../support/test-app";
import { useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * Keys answered from each instance's memory (issue 14): two server instances on one
 * PostgreSQL; a change made through one reaches the other's next request (bounded wait of one
 * second for the notification), and key uses are written when an instance shuts down.
 */
const setup = useAppWithMockedUpstream({ secondInstance: true });

/** Repeats `request` until `done` holds, for at most one setup.second. */
async function withinASecond<T>(request: () => Promise<T>, done: (result: T) => boolean): Promise<T> {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const result = await request();
    if (done(result) || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("key cache across instances", () => {
  it("a key revoked through one instance is refused by the other on its next request", async () => {
    const { key, id } = await setup.app.newKey();
    expect((await setup.second.request("/v1/me", { key })).status).toBe(200);
    expect((await setup.second.request("/v1/me", { key })).status).toBe(200);
    await revokeApiKey(setup.app.t.db, id);
    const refused = await withinASecond(
      () => setup.second.request("/v1/me", { key }),
      (res) => res.status === 401,
    );
    expect(expectEnvelope(refused, 401, "unauthorized").message).toBe("this API key has been revoked");
  });

  it("a rate-limit change through one instance is applied by the other on its next request", async () => {
    const { key, id } = await setup.app.newKey({ rateLimitPerMinute: 50 });
    expect((await setup.second.request("/v1/me", { key })).headers.get("ratelimit-policy")).toBe('"per-key";q=50;w=60');
    await setApiKeyRateLimit(setup.app.t.db, id, 40);
    const changed = await withinASecond(
      () => setup.second.request("/v1/me", { key }),
      (res) => res.headers.get("ratelimit-policy") !== '"per-key";q=50;w=60',
    );
    expect(changed.headers.get("ratelimit-policy")).toBe('"per-key";q=40;w=60');
  });

  it("an instance whose LISTEN connection is cut still refuses a key revoked meanwhile", async () => {
    const { key, id } = await setup.app.newKey();
    expect((await setup.second.request("/v1/me", { key })).status).toBe(200);
    const pid = setup.second.keyCache.listenerPid;
    await setup.app.t.db.sql.query("SELECT pg_terminate_backend($1)", [pid]);
    await withinASecond(
      async () => setup.second.keyCache.listenerPid,
      (current) => current !== pid,
    );
    await revokeApiKey(setup.app.t.db, id);
    expectEnvelope(await setup.second.request("/v1/me", { key }), 401, "unauthorized");
  });

  it("writes last_used_at in batches: not on the request's path, and at shutdown", async () => {
    const third = await startTestApp({ shareDatabaseWith: setup.app });
    const { key, id } = await setup.app.newKey();
    for (let i = 0; i < 5; i += 1) expect((await third.request("/v1/me", { key })).status).toBe(200);
    const lastUsed = async () =>
      (
        await setup.app.t.db.sql.query<{ last_used_at: Date | null }>(
          "SELECT last_used_at FROM api_keys WHERE id = $1",
          [id],
        )
      ).rows[0]?.last_used_at;
    expect(await lastUsed()).toBeNull();
    await third.close();
    expect(await lastUsed()).toBeInstanceOf(Date);
  });
});
