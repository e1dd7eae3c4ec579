import { describe, expect, it } from "vitest";

import { createApiKey } from "@mga/core/keys";
import { bindLaunchKey, completeSiteLogin } from "@mga/core/launches";
import { configureTenant } from "@mga/core/tenants";

import { anotherKey, newPartner } from "../support/partners";
import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope, startTestApp } from "../support/test-app";
import type { UntypedJson } from "../support/untyped-json";
import { answer, readSse, received, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/** The hosted chat's browser routes over HTTP: consume, session poll, chat, and the retired route. */
const setup = useAppWithMockedUpstream();
const app = new Proxy({} as ReturnType<typeof useAppWithMockedUpstream>["app"], {
  get: (_t, prop) => Reflect.get(setup.app, prop),
});

type Partner = Awaited<ReturnType<typeof newPartner>>;
type Launcher = { key: string; id: string };

async function issue(
  existing?: Partner,
  options: { loanId?: string; launcher?: Launcher; loanContext?: Record<string, unknown> } = {},
) {
  const p = existing ?? (await newPartner(app));
  if (!existing) await configureTenant(app.t.db, { organizationId: p.organizationId, config: ACME_TENANT });
  await p.put("/users/lo-1", { email: `lo1-${p.organizationId}@acme.test` });
  const launcher = options.launcher ?? (await anotherKey(app, p.organizationId, ["embed:launch"]));
  await bindLaunchKey(app.t.db, { apiKeyId: launcher.id, publicName: p.slug });
  const res = await app.request("/v1/embed-sessions", {
    method: "POST",
    key: launcher.key,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      integration: p.slug,
      user: { external_user_id: "lo-1" },
      loan_context: options.loanContext ?? { external_loan_id: options.loanId ?? "LN-9" },
    }),
  });
  const code = new URLSearchParams(new URL(res.body.launch_url).hash.slice(1)).get("code") as string;
  const siteAccountId = (
    await app.t.db.sql.query("SELECT site_account_id FROM partner_users WHERE email = lower($1)", [
      `lo1-${p.organizationId}@acme.test`,
    ])
  ).rows[0].site_account_id;
  return { code, siteAccountId, p };
}

/** Launch, consume, sign in and exchange: the chat token a signed-in page holds. */
async function chatToken(
  existing?: Partner,
  options: { loanId?: string; launcher?: Launcher; loanContext?: Record<string, unknown> } = {},
) {
  const { code, siteAccountId, p } = await issue(existing, options);
  const consumed = await consume(code);
  await completeSiteLogin(app.t.db, { sessionToken: consumed.body.session_token, siteAccountId });
  const session = await app.request("/embed/api/session", {
    headers: { Authorization: `Bearer ${consumed.body.session_token}` },
  });
  return { token: session.body.chat_token as string, p };
}

function chat(token: string, body: unknown) {
  return fetch(`${app.baseUrl}/embed/api/chat/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

const consume = (code: unknown) =>
  app.request("/embed/api/launches/consume", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });

describe("hosted chat: chatting", () => {
  it("streams answers to the signed-in user, attributed to the launch, with history", async () => {
    upstreamAnswers(answer());
    const { token } = await chatToken();
    const res = await chat(token, { message: "FHA down payment?" });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const { frames } = await readSse(res);
    expect(frames.map((f) => f.type)).toEqual([
      "public_api_conversation",
      "content",
      "content",
      "content_postprocessed",
      "complete",
      "public_api_complete",
    ]);
    const conversationId = frames[0].conversation_id;
    // No source picker in the hosted chat: every agency source the tenant enables, not just its API
    // defaults (baseSources is ["fannie_mae"]), so a VA loan's question can reach VA guidelines.
    expect(received[0]?.body.sources.agency_source_types).toEqual(ACME_TENANT.enabledSources);
    expect(received[0]?.body.enabled_agency_source_types).toEqual(ACME_TENANT.enabledSources);
    const history = await app.request(`/embed/api/chat/conversations/${conversationId}/messages`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(history.body.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    const stored = await app.t.db.sql.query("SELECT metadata FROM conversations WHERE id = $1", [conversationId]);
    expect(stored.rows[0].metadata).toMatchObject({
      attribution: { public_name: expect.any(String) },
      loan_context: { external_loan_id: "LN-9" },
    });
  });

  it("a reprovisioned user cannot read the conversations of an earlier generation; API keys never see them", async () => {
    upstreamAnswers(answer());
    const first = await chatToken();
    const { frames } = await readSse(await chat(first.token, { message: "hello" }));
    const conversationId = frames[0].conversation_id;
    const p = first.p;
    const del = await app.request(`${p.base}/users/lo-1/deletions`, {
      method: "POST",
      key: p.key,
      headers: { "Content-Type": "application/json", "Idempotency-Key": "d-1" },
      body: "{}",
    });
    await expect
      .poll(async () => (await p.get(`/user-operations/${del.body.operation.operation_id}`)).body.operation.status, {
        timeout: 10_000,
      })
      .toBe("completed");
    const re = await app.request(`${p.base}/users/lo-1/reprovision`, {
      method: "POST",
      key: p.key,
      headers: { "Content-Type": "application/json", "Idempotency-Key": "r-1" },
      body: JSON.stringify({ email: `lo1-${p.organizationId}@acme.test` }),
    });
    await expect
      .poll(async () => (await p.get(`/user-operations/${re.body.operation.operation_id}`)).body.operation.status, {
        timeout: 10_000,
      })
      .toBe("completed");
    const second = await chatToken(p);
    expectEnvelope(
      await app.request(`/embed/api/chat/conversations/${conversationId}/messages`, {
        headers: { Authorization: `Bearer ${second.token}` },
      }),
      404,
      "not_found",
    );
    const reader = await anotherKey(app, p.organizationId, ["chat:read"]);
    expectEnvelope(await app.request(`/v1/conversations/${conversationId}`, { key: reader.key }), 404, "not_found");
  });

  it("refuses a missing or revoked chat token and a bad body, before streaming", async () => {
    const { token, p } = await chatToken();
    const bad = await chat(token, { message: "" });
    expect(bad.status).toBe(400);
    await p.patch("/users/lo-1", { status: "disabled" });
    const revoked = await chat(token, { message: "hi" });
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    expect((await chat("nope", { message: "hi" })).status).toBe(401);
  });
});

describe("hosted chat: resuming an answer", () => {
  const resume = (
    token: string | undefined,
    conversationId: string,
    lastEventId?: string,
    via: "header" | "query" = "header",
    method = "GET",
  ) =>
    fetch(
      `${app.baseUrl}/embed/api/chat/conversations/${encodeURIComponent(conversationId)}/stream${lastEventId && via === "query" ? `?last_event_id=${encodeURIComponent(lastEventId)}` : ""}`,
      {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(lastEventId && via === "header" ? { "Last-Event-ID": lastEventId } : {}),
        },
      },
    );
  const refusal = async (res: Response) => ({
    status: res.status,
    code: ((await res.json()) as { error?: { code: string } }).error?.code,
  });

  it("with the chat token and the last id, the rest follows live to one terminal frame; the answer is stored once", async () => {
    const parts = Array.from({ length: 10 }, (_, i) => `part ${i}. `);
    upstreamAnswers([
      ...parts.flatMap((content) => [{ event: { type: "content", content } }, { wait: 40 }]),
      { event: { type: "complete", metadata: { tokens_used: 7 } } },
    ]);
    const { token } = await chatToken();
    // The page's stream drops after three frames, while the answer is still being generated.
    const controller = new AbortController();
    const res = await fetch(`${app.baseUrl}/embed/api/chat/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "Tell me in parts" }),
      signal: controller.signal,
    });
    const before: Array<{ frame: UntypedJson; id: string | undefined }> = [];
    await readSse(res, (frame, id) => {
      before.push({ frame, id });
      if (before.length === 3) controller.abort();
    }).catch((error: unknown) => {
      if ((error as Error).name !== "AbortError") throw error;
    });
    const conversationId = before[0]?.frame.conversation_id as string;
    const lastId = before.at(-1)?.id as string;
    const rest = await resume(token, conversationId, lastId);
    expect(rest.status).toBe(200);
    expect(rest.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const { frames, ids } = await readSse(rest);
    const all = [...before.map((seen) => seen.frame), ...frames];
    expect(all.map((frame) => frame.type)).toEqual([
      "public_api_conversation",
      ...Array(10).fill("content"),
      "complete",
      "public_api_complete",
    ]);
    expect(frames.filter((frame) => frame.type === "public_api_complete" || frame.type === "error")).toHaveLength(1);
    expect(Number(ids[0]?.split(".")[1])).toBe(Number(lastId.split(".")[1]) + 1);
    const text = parts.join("");
    expect(
      all
        .filter((frame) => frame.type === "content")
        .map((frame) => frame.content)
        .join(""),
    ).toBe(text);
    expect(received).toHaveLength(1);
    const stored = await app.t.db.sql.query(
      "SELECT role, status, content FROM messages WHERE conversation_id = $1 ORDER BY position",
      [conversationId],
    );
    expect(stored.rows).toEqual([
      { role: "user", status: "complete", content: "Tell me in parts" },
      { role: "assistant", status: "complete", content: text },
    ]);

    // The finished answer: replayed from the id (here sent as the query parameter), ending at once.
    const replay = await readSse(await resume(token, conversationId, lastId, "query"));
    expect(replay.frames).toEqual(frames);
    expect(replay.ids).toEqual(ids);
    // HEAD answers the checks without a body.
    const head = await resume(token, conversationId, lastId, "header", "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(await head.text()).toBe("");
  });

  it("refuses without a chat token (401), another user's or another loan's conversation (404), a malformed id (400)", async () => {
    upstreamAnswers(answer());
    const mine = await chatToken(undefined, { loanId: "LN-1" });
    const { frames, ids } = await readSse(await chat(mine.token, { message: "about loan one" }));
    const conversationId = frames[0].conversation_id as string;
    const lastId = ids[1] as string;
    expect((await resume(mine.token, conversationId, lastId)).status).toBe(200);

    expect(await refusal(await resume(undefined, conversationId, lastId))).toEqual({
      status: 401,
      code: "unauthorized",
    });
    expect(await refusal(await resume("nope", conversationId, lastId))).toEqual({ status: 401, code: "unauthorized" });
    // Another user (of another partner), and the same user launched for another loan: neither may follow it.
    const otherUser = await chatToken(undefined, { loanId: "LN-1" });
    expect(await refusal(await resume(otherUser.token, conversationId, lastId))).toEqual({
      status: 404,
      code: "not_found",
    });
    expect(await refusal(await resume(otherUser.token, conversationId))).toEqual({ status: 404, code: "not_found" });
    const otherLoan = await chatToken(mine.p, { loanId: "LN-2" });
    expect(await refusal(await resume(otherLoan.token, conversationId, lastId))).toEqual({
      status: 404,
      code: "not_found",
    });
    // An API key's conversation is not the chat's either, nor is an API key a chat token.
    const reader = await anotherKey(app, mine.p.organizationId, ["chat:read", "chat:write"]);
    const api = await app.request("/v1/messages", {
      method: "POST",
      key: reader.key,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "FHA?", user: { external_user_id: "u-1" } }),
    });
    expect(api.status, api.text).toBe(200);
    expect(await refusal(await resume(mine.token, api.body.conversation_id as string))).toEqual({
      status: 404,
      code: "not_found",
    });
    expect(await refusal(await resume(reader.key, conversationId, lastId))).toEqual({
      status: 401,
      code: "unauthorized",
    });

    // Malformed ids: not an event id of ours (header or query), or not a conversation id at all.
    for (const bad of ["nope", "ans_x.1", `${lastId.split(".")[0]}.-1`, `${lastId}x`]) {
      expect(await refusal(await resume(mine.token, conversationId, bad)), bad).toEqual({
        status: 400,
        code: "invalid_request",
      });
      expect(await refusal(await resume(mine.token, conversationId, bad, "query")), bad).toEqual({
        status: 400,
        code: "invalid_request",
      });
    }
    expect(await refusal(await resume(mine.token, "x".repeat(65), lastId))).toEqual({
      status: 400,
      code: "invalid_request",
    });
    // A well-formed id of another conversation's answer: not this conversation's.
    const { ids: otherIds } = await readSse(await chat(mine.token, { message: "a new conversation" }));
    expect(await refusal(await resume(mine.token, conversationId, otherIds[1]))).toEqual({
      status: 404,
      code: "not_found",
    });
  });
});

describe("hosted chat: the loan", () => {
  const loanContext = {
    external_loan_id: "LN-77",
    program: "fha",
    purpose: "cash_out_refinance",
    occupancy: "second_home",
    property_state: "TX",
    units: 2,
  };

  it("sends the launch's loan context upstream with each question, its spec 2.12 fields only", async () => {
    upstreamAnswers(answer());
    const { token } = await chatToken(undefined, { loanContext });
    // A stored context with anything more (an older version, a future field) still sends only the allowed fields.
    await app.t.db.sql.query(
      "UPDATE launches SET loan_context = loan_context || '{\"borrower_name\": \"Pat Doe\"}'::jsonb WHERE loan_context->>'external_loan_id' = 'LN-77'",
    );
    await readSse(await chat(token, { message: "Cash-out limits?" }));
    expect(received[0]?.body.loan_context).toEqual(loanContext);
  });

  it("the chat check names the loan in words and the user by display name, never by email", async () => {
    const { token, p } = await chatToken(undefined, { loanContext });
    await app.t.db.sql.query("UPDATE partner_users SET name = 'Dana Officer' WHERE email = lower($1)", [
      `lo1-${p.organizationId}@acme.test`,
    ]);
    const res = await app.request("/embed/api/chat/check", { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.body.loan).toEqual({
      external_loan_id: "LN-77",
      program: "FHA",
      purpose: "Cash-out refinance",
      property_state: "TX",
    });
    expect(res.body.user).toEqual({ display_name: "Dana Officer" });
    expect(res.text).not.toContain("@");
  });

  it("an API message sends no loan context upstream", async () => {
    upstreamAnswers(answer());
    const p = await newPartner(app);
    await configureTenant(app.t.db, { organizationId: p.organizationId, config: ACME_TENANT });
    const writer = await anotherKey(app, p.organizationId, ["chat:write"]);
    const res = await app.request("/v1/messages", {
      method: "POST",
      key: writer.key,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "FHA?", user: { external_user_id: "u-1" } }),
    });
    expect(res.status, res.text).toBe(200);
    expect(received[0]?.body).not.toHaveProperty("loan_context");
  });
});

describe("hosted chat: limits and scope", () => {
  it("answers count against the launch key's rate limit, and a spent key gets a 429 with Retry-After", async () => {
    upstreamAnswers(answer());
    const p = await newPartner(app);
    await configureTenant(app.t.db, { organizationId: p.organizationId, config: ACME_TENANT });
    const launcher = await createApiKey(app.t.db, {
      organizationId: p.organizationId,
      name: "launcher",
      scopes: ["embed:launch"],
      rateLimitPerMinute: 2,
    });
    const { token } = await chatToken(p, { launcher: { id: launcher.key.id, key: launcher.plaintext } });
    // Counting is per minute: start well inside one, so the checks below all land in it.
    const second = new Date().getSeconds();
    if (second >= 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    // The key has one request left in this window (and in the next, should the minute turn now).
    await app.t.db.sql.query(
      `INSERT INTO rate_limit_counters (api_key_id, window_start, count)
       SELECT $1, w, 1 FROM unnest(ARRAY[date_trunc('minute', now()), date_trunc('minute', now()) + interval '1 minute']) AS w
       ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = 1`,
      [launcher.key.id],
    );
    const first = await chat(token, { message: "FHA down payment?" });
    expect(first.status).toBe(200);
    await readSse(first);
    // That answer was counted: the key's own API request is now over its limit…
    expectEnvelope(await app.request("/v1/me", { key: launcher.plaintext }), 429, "rate_limited");
    // …and so is the next answer, refused before anything streams.
    const refused = await chat(token, { message: "And a gift?" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The key's limit, which the user shares: named so, for the page to say the assistant is busy rather than blame him.
    expect(refused.headers.get("ratelimit-policy")).toBe('"per-key";q=2;w=60');
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("rate_limited");
    expect(error.message).toMatch(
      /^your organization's assistant is busy: the 2 answers and requests per minute its users share are used up; try again in \d+s$/,
    );
  });

  it("a chat token reads and continues only the conversations of its launch's loan", async () => {
    upstreamAnswers(answer());
    const first = await chatToken(undefined, { loanId: "LN-1" });
    const { frames } = await readSse(await chat(first.token, { message: "about loan one" }));
    const conversationId = frames[0].conversation_id;
    const second = await chatToken(first.p, { loanId: "LN-2" });
    expectEnvelope(
      await app.request(`/embed/api/chat/conversations/${conversationId}/messages`, {
        headers: { Authorization: `Bearer ${second.token}` },
      }),
      404,
      "not_found",
    );
    const continued = await chat(second.token, { message: "continue loan one", conversation_id: conversationId });
    expect(continued.status).toBe(404);
    // The first loan's token still reads it.
    const history = await app.request(`/embed/api/chat/conversations/${conversationId}/messages`, {
      headers: { Authorization: `Bearer ${first.token}` },
    });
    expect(history.status).toBe(200);
  });

  it("the sample partner page frames only this service's own launch URLs", async () => {
    const demo = (launch: string) => fetch(`${app.baseUrl}/embed/demo-partner?launch=${encodeURIComponent(launch)}`);
    const own = await demo(`${app.baseUrl}/embed/partner/acme-los#code=abc`);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-security-policy")).toContain(`frame-src ${app.baseUrl};`);
    for (const other of [
      "https://evil.example/embed/partner/acme-los",
      `${app.baseUrl}/site/login`,
      `${app.baseUrl}/embed/partner/acme-los?x=1`,
      "javascript:alert(1)",
      "not a url",
    ]) {
      const refused = await demo(other);
      expect(refused.status, other).toBe(400);
      expect(await refused.text()).not.toContain("<iframe");
    }
  });
});

describe("hosted chat: stopping an answer", () => {
  const cancel = (token: string | undefined, conversationId: string) =>
    fetch(`${app.baseUrl}/embed/api/chat/conversations/${encodeURIComponent(conversationId)}/cancel`, {
      method: "POST",
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });

  it("the chat token's own answer stops (202; stored incomplete, cancelled), an ended one is left (200); anyone else's is 404, no token 401", async () => {
    // A long answer, paced under the upstream's idle timeout, so that it is still being generated.
    const parts = Array.from({ length: 40 }, (_, i) => `part ${i}. `);
    upstreamAnswers([
      ...parts.flatMap((content) => [{ event: { type: "content", content } }, { wait: 150 }]),
      { event: { type: "complete", metadata: { tokens_used: 7 } } },
    ]);
    const mine = await chatToken(undefined, { loanId: "LN-1" });
    const res = await chat(mine.token, { message: "Stop me" });
    const frames: UntypedJson[] = [];
    let conversationId = "";
    const read = readSse(res, (frame) => {
      frames.push(frame);
      if (frame.type === "public_api_conversation") conversationId = frame.conversation_id as string;
    });
    await expect.poll(() => frames.some((frame) => frame.type === "content")).toBe(true);

    // Another user, the same user on another loan, no token, a malformed id: refused, nothing stops.
    const otherUser = await chatToken(undefined, { loanId: "LN-1" });
    expectEnvelope(
      await app.request(`/embed/api/chat/conversations/${conversationId}/cancel`, {
        method: "POST",
        headers: { Authorization: `Bearer ${otherUser.token}` },
      }),
      404,
      "not_found",
    );
    const otherLoan = await chatToken(mine.p, { loanId: "LN-2" });
    expect((await cancel(otherLoan.token, conversationId)).status).toBe(404);
    expect((await cancel(undefined, conversationId)).status).toBe(401);
    expect((await cancel(mine.token, "x".repeat(65))).status).toBe(400);

    const stopped = await cancel(mine.token, conversationId);
    expect(stopped.status).toBe(202);
    expect(await stopped.json()).toMatchObject({
      conversation_id: conversationId,
      status: "generating",
      message_id: expect.any(String),
    });
    await read;
    expect(frames.at(-1)).toMatchObject({ type: "error", status: 409 });
    const stored = await app.t.db.sql.query(
      "SELECT status, content, metadata FROM messages WHERE conversation_id = $1 AND role = 'assistant'",
      [conversationId],
    );
    expect(stored.rows).toEqual([
      expect.objectContaining({
        status: "incomplete",
        content: expect.stringMatching(/^part 0\. /),
        metadata: expect.objectContaining({ error_code: "cancelled" }),
      }),
    ]);
    expect(stored.rows[0].content).not.toContain("part 39.");
    // Ended: nothing to stop.
    const again = await cancel(mine.token, conversationId);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ conversation_id: conversationId, status: "cancelled" });
  });
});

describe("hosted chat routes", () => {
  it("consumes a code once, then polls the session until the login yields the chat token", async () => {
    const { code, siteAccountId } = await issue();
    const consumed = await consume(code);
    expect(consumed.status).toBe(200);
    expect(consumed.body).toMatchObject({
      login_required: true,
      session_token: expect.any(String),
      request_id: consumed.headers.get("x-request-id"),
    });
    expect(consumed.headers.get("cache-control")).toBe("no-store");
    // Refused again, saying why (the envelope itself stays exactly code, message, request_id).
    const reused = await consume(code);
    expectEnvelope(reused, 401, "unauthorized");
    expect(reused.headers.get("launch-code-status")).toBe("used");

    const poll = () =>
      app.request("/embed/api/session", { headers: { Authorization: `Bearer ${consumed.body.session_token}` } });
    expect((await poll()).body).toMatchObject({ status: "login_pending" });
    await completeSiteLogin(app.t.db, { sessionToken: consumed.body.session_token, siteAccountId });
    const authorized = await poll();
    expect(authorized.body).toMatchObject({
      status: "authorized",
      chat_token: expect.any(String),
      expires_at: expect.any(String),
    });
    expectEnvelope(await poll(), 401, "unauthorized");
  });

  it("answers bad input and missing tokens in the envelope", async () => {
    expectEnvelope(await consume(42), 400, "invalid_request");
    const unknown = await consume("nope");
    expectEnvelope(unknown, 401, "unauthorized");
    expect(unknown.headers.get("launch-code-status")).toBe("unknown");
    const { code } = await issue();
    await app.t.db.sql.query("UPDATE launches SET expires_at = now() - interval '1 second' WHERE consumed_at IS NULL");
    const expired = await consume(code);
    expectEnvelope(expired, 401, "unauthorized");
    expect(expired.headers.get("launch-code-status")).toBe("expired");
    expect(expired.body.error.message).toMatch(/expired/);
    expectEnvelope(await app.request("/embed/api/session"), 401, "unauthorized");
    expectEnvelope(
      await app.request("/embed/api/session", { headers: { Authorization: "Bearer nope" } }),
      401,
      "unauthorized",
    );
  });

  it("the retired origin-bound browser route answers 410 Gone, never a redirect", async () => {
    for (const path of ["/embed/launch", "/embed/launch/acme-los?origin=https%3A%2F%2Flos.example"]) {
      const res = await app.request(path, { redirect: "manual" });
      expect(res.status).toBe(410);
      expect(res.headers.get("location")).toBeNull();
      expect(res.body.error).toMatchObject({ code: "not_found", message: expect.stringContaining("retired") });
    }
  });
});

describe("the built-in site pages", () => {
  it("sets a password from the password-setup link once, then signs in with it", async () => {
    const { p } = await issue();
    const email = `lo1-${p.organizationId}@acme.test`.toLowerCase();
    const { rows } = await app.t.db.sql.query(
      "SELECT payload FROM notification_outbox WHERE recipient = $1 AND kind = 'password_setup'",
      [email],
    );
    const link = app.t.db.secrets.open("notification-link", rows[0].payload.link) as string;
    expect(link).toMatch(/^\/site\/password-setup#token=/);
    const token = link.split("#token=")[1] as string;
    const form = (path: string, fields: Record<string, string>) =>
      fetch(`${app.baseUrl}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
    expect((await form("/site/password-setup", { token, password: "short" })).status).toBe(400);
    const common = await form("/site/password-setup", { token, password: "password1234" });
    expect(common.status).toBe(400);
    expect(await common.text()).toContain("Password: too easy to guess (this is similar to a commonly used password)");
    expect((await form("/site/password-setup", { token, password: "long enough password" })).status).toBe(200);
    expect((await form("/site/password-setup", { token, password: "another long password" })).status).toBe(401);
    const { code } = await issue(p);
    const consumed = await consume(code);
    const wrong = await form("/site/login", {
      session: consumed.body.session_token,
      email,
      password: "nope nope nope",
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Wrong email or password, or this sign-in has expired");
    const ok = await form("/site/login", {
      session: consumed.body.session_token,
      email,
      password: "long enough password",
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const session = await app.request("/embed/api/session", {
      headers: { Authorization: `Bearer ${consumed.body.session_token}` },
    });
    expect(session.body.status).toBe("authorized");
  });

  it("serves the hosted chat page frameable by partners, with same-origin scripts only", async () => {
    const page = await fetch(`${app.baseUrl}/embed/partner/acme-los`);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors *");
    expect(csp).toContain("script-src 'self'");
    expect(page.headers.get("x-frame-options")).toBeNull();
    expect(await page.text()).toContain('src="/embed/assets/chat.js"');
  });
});

describe("a real site's login (SITE_LOGIN_URL)", () => {
  it("reports a completed login with the shared secret; wrong secret or wrong account are refused", async () => {
    const secret = "s".repeat(40);
    const siteApp = await startTestApp({ shareDatabaseWith: app, siteCallbackSecret: secret });
    try {
      const { code, siteAccountId } = await issue();
      const consumed = await consume(code);
      expect(consumed.body.login_url).toBe(`/site/login#session=${encodeURIComponent(consumed.body.session_token)}`);
      const report = (auth: string, body: unknown) =>
        fetch(`${siteApp.baseUrl}/site/api/login-complete`, {
          method: "POST",
          headers: { Authorization: `Bearer ${auth}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      expect(
        (await report("wrong", { session_token: consumed.body.session_token, site_account_id: siteAccountId })).status,
      ).toBe(401);
      expect(
        (await report(secret, { session_token: consumed.body.session_token, site_account_id: "sa_other" })).status,
      ).toBe(403);
      expect((await report(secret, { session_token: consumed.body.session_token })).status).toBe(400);
      expect(
        (await report(secret, { session_token: consumed.body.session_token, site_account_id: siteAccountId })).status,
      ).toBe(204);
      const session = await app.request("/embed/api/session", {
        headers: { Authorization: `Bearer ${consumed.body.session_token}` },
      });
      expect(session.body.status).toBe("authorized");
    } finally {
      await siteApp.close();
    }
  });

  it("without a configured secret the callback is refused", async () => {
    const res = await fetch(`${app.baseUrl}/site/api/login-complete`, {
      method: "POST",
      headers: { Authorization: "Bearer anything", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
  });
});
