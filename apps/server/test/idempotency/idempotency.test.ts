import { describe, expect, it } from "vitest";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope, type TestApp } from "../support/test-app";
import { answer, received, upstreamAnswers, upstreamStatus, useAppWithMockedUpstream } from "../support/upstream-mock";

/** Idempotency-Key on the POST routes, with two server instances sharing one database. */
const setup = useAppWithMockedUpstream({ secondInstance: true });

const user = { external_user_id: "u" };
const post = (on: TestApp, path: string, key: string, body: unknown, idempotencyKey?: string) =>
  on.request(path, {
    method: "POST",
    key,
    headers: { "Content-Type": "application/json", ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}) },
    body: JSON.stringify(body),
  });
const count = async (sql: string, apiKeyId: string) =>
  (await setup.app.t.db.sql.query(sql, [apiKeyId])).rows[0].n as number;
const conversationsOf = (apiKeyId: string) =>
  count("SELECT count(*)::int AS n FROM conversations WHERE api_key_id = $1", apiKeyId);

describe("Idempotency-Key", () => {
  it("replays the original status and body, request_id included, marked as a replay, on any instance", async () => {
    upstreamAnswers(answer());
    const { key, id } = await setup.app.newKey({ tenant: ACME_TENANT });
    const first = await post(setup.app, "/v1/conversations", key, { user, title: "T" }, "create-conv-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post(setup.second, "/v1/conversations", key, { title: "T", user }, "create-conv-1");
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await conversationsOf(id)).toBe(1);

    const message = await post(setup.app, "/v1/messages", key, { message: "hi", user }, "msg-1");
    const replay = await post(setup.second, "/v1/messages", key, { message: "hi", user }, '"msg-1"');
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(message.body);
    expect(received).toHaveLength(1);
    expect(await conversationsOf(id)).toBe(2);
  });

  it("409 idempotency_conflict for the same key with another body, route or target", async () => {
    upstreamAnswers(answer());
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const a = await post(setup.app, "/v1/conversations", key, { user }, "k-1");
    const b = await post(setup.app, "/v1/conversations", key, { user }, "k-2");
    await post(setup.app, `/v1/conversations/${a.body.conversation_id}/messages`, key, { message: "hi", user }, "k-3");
    expectEnvelope(
      await post(setup.app, "/v1/conversations", key, { user, title: "other" }, "k-1"),
      409,
      "idempotency_conflict",
    );
    expectEnvelope(
      await post(setup.app, "/v1/messages", key, { message: "hi", user }, "k-1"),
      409,
      "idempotency_conflict",
    );
    expectEnvelope(
      await post(
        setup.app,
        `/v1/conversations/${b.body.conversation_id}/messages`,
        key,
        { message: "hi", user },
        "k-3",
      ),
      409,
      "idempotency_conflict",
    );
  });

  it("is scoped to the API key", async () => {
    const one = await setup.app.newKey({ tenant: ACME_TENANT });
    const two = await setup.app.newKey({ tenant: ACME_TENANT });
    const a = await post(setup.app, "/v1/conversations", one.key, { user }, "shared-key");
    const b = await post(setup.app, "/v1/conversations", two.key, { user }, "shared-key");
    expect(b.status).toBe(201);
    expect(b.body.conversation_id).not.toBe(a.body.conversation_id);
  });

  it("two identical requests racing on two instances create one conversation and one answer", async () => {
    upstreamAnswers([{ wait: 300 }, ...answer()]);
    const { key, id } = await setup.app.newKey({ tenant: ACME_TENANT });
    const body = { message: "hi", user };
    const [x, y] = await Promise.all([
      post(setup.app, "/v1/messages", key, body, "race-1"),
      post(setup.second, "/v1/messages", key, body, "race-1"),
    ]);
    const statuses = [x.status, y.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = x.status === 409 ? x : y;
    expect(loser.body.error.code).toBe("idempotency_conflict");
    expect(loser.headers.get("retry-after")).toBe("1");
    expect(await conversationsOf(id)).toBe(1);
    expect(received).toHaveLength(1);
    // Once the winner is done, the retry replays it.
    const winner = x.status === 200 ? x : y;
    expect((await post(setup.app, "/v1/messages", key, body, "race-1")).body).toEqual(winner.body);
  });

  it("a failed request stores nothing: the retry runs again", async () => {
    upstreamStatus(500);
    const { key, id } = await setup.app.newKey({ tenant: ACME_TENANT });
    expectEnvelope(
      await post(setup.app, "/v1/messages", key, { message: "hi", user }, "retry-1"),
      502,
      "upstream_error",
    );
    upstreamAnswers(answer());
    const retry = await post(setup.app, "/v1/messages", key, { message: "hi", user }, "retry-1");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await conversationsOf(id)).toBe(1);
  });

  it("rejects a malformed key and the stream combination with 400", async () => {
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    expectEnvelope(await post(setup.app, "/v1/conversations", key, { user }, "x".repeat(256)), 400, "invalid_request");
    expectEnvelope(await post(setup.app, "/v1/conversations", key, { user }, "has space"), 400, "invalid_request");
    // Through the JSON procedure (no SSE route): stream false with a key is fine.
    upstreamAnswers(answer());
    expect((await post(setup.app, "/v1/messages", key, { message: "hi", user, stream: false }, "ok-1")).status).toBe(
      200,
    );
  });

  it("expired records no longer replay", async () => {
    const { key, id } = await setup.app.newKey({ tenant: ACME_TENANT });
    await post(setup.app, "/v1/conversations", key, { user }, "old-1");
    await setup.app.t.db.sql.query(
      "UPDATE idempotency_records SET expires_at = now() - interval '1 second' WHERE api_key_id = $1",
      [id],
    );
    const again = await post(setup.app, "/v1/conversations", key, { user }, "old-1");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await conversationsOf(id)).toBe(2);
  });
});
