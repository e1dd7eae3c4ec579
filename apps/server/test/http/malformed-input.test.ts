import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ALL_PARTNER_SCOPES, newPartner } from "../support/partners";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";
import type { UntypedJson } from "../support/untyped-json";

/**
 * The malformed requests that once answered 500 (some without a key), each now a 4xx in the
 * envelope naming what is wrong, and nothing stored. The fuzz tests (test/fuzz/) generate
 * hundreds more of their kind.
 */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.newKey({ scopes: ["chat:read", "chat:write", "sources:read", ...ALL_PARTNER_SCOPES] })).key;
});
afterAll(() => app.close());

const json = { "Content-Type": "application/json" };
const post = (path: string, body: string, withKey?: string) =>
  app.request(path, { method: "POST", key: withKey, headers: json, body });
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const conversations = async () =>
  (await app.t.db.sql.query("SELECT count(*)::int AS n FROM conversations")).rows[0].n as number;

/** A raw request: fetch would re-encode a malformed path before sending it. */
function raw(
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; headers: Headers; body: UntypedJson }> {
  return new Promise((resolve, reject) => {
    const url = new URL(app.baseUrl);
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: body ? json : {} }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === "string") headers.set(name, value);
        resolve({ status: res.statusCode ?? 0, headers, body: JSON.parse(text) });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("bodies", () => {
  it("a 10 KB body nested 5,000 levels deep is a 400, with or without a key; depth 1,000 in a conversation too", async () => {
    expect(expectEnvelope(await post("/v1/messages", nested(5000)), 400, "invalid_request").message).toBe(
      "request body nests deeper than 64 levels",
    );
    const deep = `{"user":{"external_user_id":"u1"},"metadata":{"a":${nested(1000)}}}`;
    expectEnvelope(await post("/v1/conversations", deep, key), 400, "invalid_request");
    // 64 levels are allowed through to the route (which may refuse them for its own reasons).
    expect(
      (await post("/v1/conversations", `{"user":{"external_user_id":"u1"},"metadata":{"a":${nested(60)}}}`, key))
        .status,
    ).toBe(201);
  });

  it("NUL characters and unpaired surrogates are refused, naming the field", async () => {
    const before = await conversations();
    const cases: Array<[string, string]> = [
      [`{"user":{"external_user_id":"u1"},"title":"a\\u0000b"}`, "title: contains a NUL character"],
      [`{"user":{"external_user_id":"u1"},"metadata":{"note":"x\\u0000"}}`, "metadata.note: contains a NUL character"],
      [`{"user":{"external_user_id":"u1"},"metadata":{"k\\u0000":"x"}}`, "metadata.k: contains a NUL character"],
      // The path names array positions, and what came before a field does not stay in its path.
      [
        `{"user":{"external_user_id":"u1"},"metadata":{"tags":["ok",{"a":"b"},"x\\u0000"]}}`,
        "metadata.tags.2: contains a NUL character",
      ],
      [
        `{"user":{"external_user_id":"u1"},"metadata":{"a":{"b":["c"]}},"title":"x\\u0000"}`,
        "title: contains a NUL character",
      ],
      [`{"user":{"external_user_id":"u1"},"title":"\\ud800"}`, "title: contains an unpaired UTF-16 surrogate"],
      [`{"user":{"external_user_id":"u1"},"title":"\\udc00x"}`, "title: contains an unpaired UTF-16 surrogate"],
    ];
    for (const [body, message] of cases)
      expect(expectEnvelope(await post("/v1/conversations", body, key), 400, "invalid_request").message).toBe(message);
    // A well-formed pair is text like any other.
    expect(
      (await post("/v1/conversations", `{"user":{"external_user_id":"u1"},"title":"\\ud83d\\ude00"}`, key)).status,
    ).toBe(201);
    expect(await conversations()).toBe(before + 1);
  });

  it("numbers JSON cannot represent are refused rather than stored as null", async () => {
    const res = await post("/v1/conversations", `{"user":{"external_user_id":"u1"},"metadata":{"amount":1e400}}`, key);
    expect(expectEnvelope(res, 400, "invalid_request").message).toBe("metadata.amount: number out of range");
  });

  it("invalid UTF-8 and bodies of another type are refused", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]);
    expect(
      expectEnvelope(
        await app.request("/v1/conversations", { method: "POST", key, headers: json, body: bytes }),
        400,
        "invalid_request",
      ).message,
    ).toBe("request body is not valid UTF-8");
    expectEnvelope(
      await app.request("/v1/conversations", {
        method: "POST",
        key,
        headers: { "Content-Type": "text/plain" },
        body: "hello",
      }),
      415,
      "invalid_request",
    );
  });

  it("the staff surface reads bodies with the same limit: 5 MB unauthenticated is a 413", async () => {
    const big = JSON.stringify({ email: "a@b.test", password: "x".repeat(5 * 1024 * 1024) });
    const res = await fetch(`${app.adminUrl}/trpc/staff.signIn`, { method: "POST", headers: json, body: big });
    expect(res.status).toBe(413);
    // In tRPC's error shape, which the console reads, with the spec's envelope inside.
    const body = (await res.json()) as {
      error: { data: { httpStatus: number }; envelope: { error: { code: string; request_id: string } } };
    };
    expect(body.error.data.httpStatus).toBe(413);
    expect(body.error.envelope.error).toMatchObject({
      code: "invalid_request",
      request_id: res.headers.get("x-request-id"),
    });
    // A query's input in the URL gets the same checks.
    const input = encodeURIComponent(`{"a":${nested(100)}}`);
    expect((await fetch(`${app.adminUrl}/trpc/system.status?input=${input}`)).status).toBe(400);
  });
});

describe("paths, queries and cursors", () => {
  it("bad percent-encoding in a path is a 400, with or without a key, streamed or not", async () => {
    for (const path of [
      "/v1/conversations/%E0%A4%A/messages",
      "/v1/conversations/%zz",
      "/v1/conversations/%ED%A0%80",
      "/embed/partner/%",
    ]) {
      const res = await raw(
        "POST",
        path,
        JSON.stringify({ message: "hi", user: { external_user_id: "u1" }, stream: true }),
      );
      expect(expectEnvelope(res, 400, "invalid_request").message, path).toBe("path: malformed percent-encoding");
    }
    expect(expectEnvelope(await raw("GET", "/v1/conversations/%00"), 400, "invalid_request").message).toBe(
      "path: contains a NUL character",
    );
  });

  it("a NUL or a bad escape in the query is a 400 naming the parameter", async () => {
    const p = await newPartner(app, { slug: "query-los" });
    expect(expectEnvelope(await raw("GET", `${p.base}/users?q=a%00b`), 400, "invalid_request").message).toBe(
      "q: contains a NUL character",
    );
    expect(expectEnvelope(await raw("GET", `${p.base}/users?q=%E0%A4%A`), 400, "invalid_request").message).toBe(
      "query: malformed percent-encoding",
    );
  });

  it("everything after the first ? is the query: a NUL or bad escape behind a second ? is still a 400", async () => {
    const p = await newPartner(app, { slug: "second-los" });
    expect(expectEnvelope(await raw("GET", `${p.base}/users?q=a?%00b`), 400, "invalid_request").message).toBe(
      "q: contains a NUL character",
    );
    expect(expectEnvelope(await raw("GET", `${p.base}/users?q=a?%zz`), 400, "invalid_request").message).toBe(
      "query: malformed percent-encoding",
    );
  });

  it("a staff cookie with malformed escapes is no session, not a crash, on either listener", async () => {
    const cookie = { Cookie: "mga_staff=%zz" };
    expectEnvelope(await app.request("/v1/me", { headers: cookie }), 401, "unauthorized");
    expect((await fetch(`${app.adminUrl}/trpc/staff.organizations.list`, { headers: cookie })).status).toBe(401);
  });

  it("cursors are signed: one made up, or decoding to a bad date, is a 400", async () => {
    const p = await newPartner(app, { slug: "cursor-los" });
    for (let i = 0; i < 3; i += 1) await p.put(`/users/c-${i}`, { email: `c${i}@acme.test` });
    const page = await p.get("/users?limit=1");
    const cursor = page.body.next_cursor as string;
    expect((await p.get(`/users?limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    const forge = (fields: object) => Buffer.from(JSON.stringify(fields)).toString("base64url");
    const [payload, mac] = cursor.split(".") as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString());
    for (const bad of [
      forge({ c: "1", i: "x", f: decoded.f }),
      `${forge({ ...decoded, c: "+275760-09-13T00:00:00.000Z" })}.${mac}`,
      `${forge({ ...decoded, i: "pu_other" })}.${mac}`,
      `${payload}.${mac.slice(0, -2)}AA`,
      `${payload}.${mac}.extra`,
    ]) {
      expect(
        expectEnvelope(await p.get(`/users?limit=1&cursor=${encodeURIComponent(bad)}`), 400, "invalid_request").message,
      ).toBe("cursor: not a cursor returned by this API");
    }
  });
});
