import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { HttpChatIdentities } from "../../../src/partners/ports/http-chat-identities";
import { DirectoryUnavailable } from "../../../src/partners/ports/http-json";
import { HttpSiteAccounts } from "../../../src/partners/ports/http-site-accounts";

/** The ports' HTTP adapters against their documented contracts (docs/site-accounts-contract.md), served by msw. */
const SITE = "http://site.test";
const CHAT = "http://chat.test";
const server = setupServer();
const calls: Array<{ method: string; path: string; auth: string | null; body: unknown }> = [];

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

function record(handler: (body: unknown, url: URL) => Response | Promise<Response>) {
  return async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const text = await request.text();
    const body = text ? JSON.parse(text) : undefined;
    calls.push({
      method: request.method,
      path: url.pathname + url.search,
      auth: request.headers.get("authorization"),
      body,
    });
    return handler(body, url);
  };
}

const site = () =>
  new HttpSiteAccounts({ url: SITE, username: "mga-bot", applicationPassword: "abcd efgh", timeoutMs: 500 });

describe("HttpSiteAccounts (WordPress REST users + companion routes)", () => {
  it("finds an account by exact email, with application-password auth", async () => {
    server.use(
      http.get(
        `${SITE}/wp-json/wp/v2/users`,
        record(() =>
          HttpResponse.json([
            { id: 7, email: "someone.else@acme.test" },
            { id: 8, email: "Known@Acme.test", meta: { mga_origin: "partner" } },
          ]),
        ),
      ),
    );
    expect(await site().findByEmail("known@acme.test")).toEqual({ id: "8", origin: "partner" });
    expect(await site().findByEmail("nobody@acme.test")).toBeNull();
    expect(calls[0]?.path).toBe("/wp-json/wp/v2/users?context=edit&search=known%40acme.test&search_columns=user_email");
    expect(calls[0]?.auth).toBe(`Basic ${Buffer.from("mga-bot:abcd efgh").toString("base64")}`);
  });

  it("creates a partner account, and recovers one created by a lost earlier attempt", async () => {
    server.use(
      http.post(
        `${SITE}/wp-json/wp/v2/users`,
        record(() => HttpResponse.json({ id: 41 }, { status: 201 })),
      ),
    );
    expect(await site().createPartnerAccount({ email: "New@Acme.test", name: "New" })).toEqual({
      id: "41",
      origin: "self",
    });
    expect(calls[0]?.body).toMatchObject({
      username: "new@acme.test",
      email: "new@acme.test",
      name: "New",
      meta: { mga_origin: "partner" },
    });
    expect(typeof (calls[0]?.body as { password: string }).password).toBe("string");

    server.use(
      http.post(`${SITE}/wp-json/wp/v2/users`, () =>
        HttpResponse.json({ code: "existing_user_email" }, { status: 400 }),
      ),
      http.get(`${SITE}/wp-json/wp/v2/users`, () =>
        HttpResponse.json([{ id: 41, email: "new@acme.test", meta: { mga_origin: "partner" } }]),
      ),
    );
    expect(await site().createPartnerAccount({ email: "new@acme.test" })).toEqual({ id: "41", origin: "partner" });
  });

  it("locks, unlocks, destroys sessions, notifies, updates and deletes through the documented routes", async () => {
    server.use(
      http.post(
        `${SITE}/wp-json/mga/v1/users/:id/lock`,
        record(() => HttpResponse.json({ ok: true })),
      ),
      http.delete(
        `${SITE}/wp-json/mga/v1/users/:id/sessions`,
        record(() => new HttpResponse(null, { status: 204 })),
      ),
      http.post(
        `${SITE}/wp-json/mga/v1/users/:id/password-reset`,
        record(() => HttpResponse.json({ ok: true })),
      ),
      http.post(
        `${SITE}/wp-json/mga/v1/users/:id/notifications`,
        record(() => HttpResponse.json({ queued: true }, { status: 202 })),
      ),
      http.post(
        `${SITE}/wp-json/wp/v2/users/:id`,
        record(() => HttpResponse.json({ id: 9 })),
      ),
      http.delete(
        `${SITE}/wp-json/wp/v2/users/:id`,
        record(() => HttpResponse.json({ deleted: true })),
      ),
    );
    const s = site();
    await s.lock("9");
    await s.unlock("9");
    await s.destroySessions("9");
    await s.resetPassword("9");
    await s.sendPasswordSetup("9");
    await s.sendEmailVerification("9", { newEmail: "Next@Acme.test", token: "tok" });
    await s.updateProfile("9", { email: "next@acme.test", name: "Next" });
    await s.deleteAccount("9");
    expect(calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body ?? null)}`)).toEqual([
      'POST /wp-json/mga/v1/users/9/lock {"locked":true}',
      'POST /wp-json/mga/v1/users/9/lock {"locked":false}',
      "DELETE /wp-json/mga/v1/users/9/sessions null",
      "POST /wp-json/mga/v1/users/9/password-reset {}",
      'POST /wp-json/mga/v1/users/9/notifications {"kind":"password_setup"}',
      'POST /wp-json/mga/v1/users/9/notifications {"kind":"email_verification","new_email":"next@acme.test","token":"tok"}',
      'POST /wp-json/wp/v2/users/9 {"email":"next@acme.test","name":"Next"}',
      "DELETE /wp-json/wp/v2/users/9?force=true&reassign=false null",
    ]);
  });

  it("treats a repeated deletion as done", async () => {
    server.use(
      http.delete(`${SITE}/wp-json/wp/v2/users/:id`, () =>
        HttpResponse.json({ code: "rest_user_invalid_id" }, { status: 404 }),
      ),
    );
    await expect(site().deleteAccount("9")).resolves.toBeUndefined();
  });

  it("reports 5xx, 429, timeouts and network failures as unavailable (retryable), 4xx as refusals", async () => {
    server.use(http.get(`${SITE}/wp-json/wp/v2/users`, () => new HttpResponse("down", { status: 503 })));
    await expect(site().findByEmail("a@b.test")).rejects.toBeInstanceOf(DirectoryUnavailable);
    server.use(http.get(`${SITE}/wp-json/wp/v2/users`, () => new HttpResponse("slow down", { status: 429 })));
    await expect(site().findByEmail("a@b.test")).rejects.toBeInstanceOf(DirectoryUnavailable);
    server.use(http.get(`${SITE}/wp-json/wp/v2/users`, async () => new Promise<Response>(() => {})));
    await expect(site().findByEmail("a@b.test")).rejects.toBeInstanceOf(DirectoryUnavailable);
    server.use(http.get(`${SITE}/wp-json/wp/v2/users`, () => HttpResponse.error()));
    await expect(site().findByEmail("a@b.test")).rejects.toBeInstanceOf(DirectoryUnavailable);
    server.use(
      http.post(`${SITE}/wp-json/mga/v1/users/:id/lock`, () =>
        HttpResponse.json({ code: "rest_forbidden" }, { status: 403 }),
      ),
    );
    await expect(site().lock("1")).rejects.toMatchObject({ name: "HttpRefused", status: 403 });
  });
});

describe("HttpChatIdentities", () => {
  const chat = () => new HttpChatIdentities({ url: CHAT, token: "chat-secret", timeoutMs: 500 });

  it("creates (idempotent PUT per user and generation) and blocks identities", async () => {
    server.use(
      http.put(
        `${CHAT}/v1/identities/:user/generations/:generation`,
        record(() => HttpResponse.json({ id: "ci_123" })),
      ),
      http.post(
        `${CHAT}/v1/identities/:id/block`,
        record(() => new HttpResponse(null, { status: 204 })),
      ),
    );
    expect(await chat().create({ partnerUserId: "pu_1", generation: 2 })).toEqual({ id: "ci_123" });
    await chat().block("ci_123");
    expect(calls.map((call) => `${call.method} ${call.path} ${call.auth}`)).toEqual([
      "PUT /v1/identities/pu_1/generations/2 Bearer chat-secret",
      "POST /v1/identities/ci_123/block Bearer chat-secret",
    ]);
  });

  it("fails on an answer without an id, and on an unavailable store", async () => {
    server.use(http.put(`${CHAT}/v1/identities/:user/generations/:generation`, () => HttpResponse.json({})));
    await expect(chat().create({ partnerUserId: "pu_1", generation: 1 })).rejects.toThrow(/without an id/);
    server.use(
      http.put(`${CHAT}/v1/identities/:user/generations/:generation`, () => new HttpResponse(null, { status: 500 })),
    );
    await expect(chat().create({ partnerUserId: "pu_1", generation: 1 })).rejects.toBeInstanceOf(DirectoryUnavailable);
  });
});
