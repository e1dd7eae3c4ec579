import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope } from "../support/test-app";
import type { UntypedJson } from "../support/untyped-json";
import {
  answer,
  readSse,
  received,
  upstreamAnswers,
  upstreamStatus,
  useAppWithMockedUpstream,
} from "../support/upstream-mock";

/**
 * The two message routes, answered as JSON or as an event stream, go through one pipeline
 * (issue 13): the same checks in the same order, the same refusals word for word.
 */
const setup = useAppWithMockedUpstream();
const user = { external_user_id: "lo-1" };
const ROUTES = ["/v1/messages", "/v1/conversations/conv_nope/messages"];

function post(path: string, key: string, body: object, headers: Record<string, string> = {}) {
  return setup.app.request(path, {
    method: "POST",
    key,
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** A request exactly as written: fetch would resolve the dot segments before sending. */
function rawPost(path: string, key: string, body: object, headers: Record<string, string> = {}) {
  const url = new URL(setup.app.baseUrl);
  return new Promise<{ status: number; headers: Headers; body: UntypedJson }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === "string") responseHeaders.set(name, value);
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: JSON.parse(text) });
        });
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("one pipeline for both message routes, JSON or streamed", () => {
  it("refuses the same bad bodies with the same status, code and message", async () => {
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const badBodies = [
      { message: "", user },
      { message: "hi" },
      { message: "hi", user, unknown_field: 1 },
      { message: "x".repeat(4001), user: { external_user_id: "" } },
      { message: "hi", user, search_options: { agency_source_types: "fha" } },
      { message: "hi", user, metadata: ["not", "an", "object"] },
    ];
    for (const path of ROUTES) {
      for (const body of badBodies) {
        const json = await post(path, key, { ...body, stream: false });
        const streamed = await post(path, key, { ...body, stream: true });
        expectEnvelope(json, 400, "invalid_request");
        expectEnvelope(streamed, 400, "invalid_request");
        expect(streamed.body.error.message).toBe(json.body.error.message);
      }
    }
    expect(received).toHaveLength(0);
  });

  it("streamed: key, then rate limit, then scope, then Idempotency-Key (any value), then the body", async () => {
    const reader = await setup.app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read"] });
    const writer = await setup.app.newKey({ tenant: ACME_TENANT });
    const bad = { stream: true, message: "" };
    for (const path of ROUTES) {
      expectEnvelope(await post(path, "mga_sk_bad", bad, { "Idempotency-Key": "abc" }), 401, "unauthorized");
      const forbidden = await post(path, reader.key, bad, { "Idempotency-Key": "abc" });
      expect(expectEnvelope(forbidden, 403, "forbidden").message).toBe("this API key lacks the chat:write scope");
      // The key was counted before its scope was checked, and the answer says so.
      expect(forbidden.headers.get("ratelimit-policy")).toBe('"per-key";q=600;w=60');
      const withKey = await post(path, writer.key, bad, { "Idempotency-Key": "abc" });
      expect(expectEnvelope(withKey, 400, "invalid_request").message).toBe(
        "Idempotency-Key is not supported with stream: true; send one or the other",
      );
      expect(withKey.headers.get("x-ratelimit-remaining")).not.toBeNull();
      // Refused whatever its value: a value Idempotency-Key could never take is not reported as malformed.
      const malformed = await post(
        path,
        writer.key,
        { stream: true, message: "hi", user },
        { "Idempotency-Key": "two words" },
      );
      expect(expectEnvelope(malformed, 400, "invalid_request").message).toBe(
        "Idempotency-Key is not supported with stream: true; send one or the other",
      );
    }
    expect(received).toHaveLength(0);
  });

  it("JSON: the body is checked before Idempotency-Key", async () => {
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    for (const path of ROUTES) {
      const badBoth = await post(path, key, { message: "", user }, { "Idempotency-Key": "two words" });
      expect(expectEnvelope(badBoth, 400, "invalid_request").message).not.toMatch(/Idempotency-Key/);
      const badKey = await post(path, key, { message: "hi", user }, { "Idempotency-Key": "two words" });
      expect(expectEnvelope(badKey, 400, "invalid_request").message).toBe(
        "Idempotency-Key: must be 1-255 printable ASCII characters without spaces",
      );
    }
  });

  it("streamed: every request counts against the key's limit, the 429 names when to retry", async () => {
    upstreamAnswers(answer());
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT, rateLimitPerMinute: 2 });
    const msIntoMinute = Date.now() % 60_000;
    if (msIntoMinute > 55_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - msIntoMinute));
    const res = await fetch(`${setup.app.baseUrl}/v1/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ stream: true, message: "hi", user }),
    });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("ratelimit")).toMatch(/^"per-key";r=1;t=\d+$/);
    expect((await readSse(res)).frames.at(-1).type).toBe("public_api_complete");
    // A refused body still counts: the next request is the third of a limit of two.
    expectEnvelope(await post("/v1/messages", key, { stream: true, message: "" }), 400, "invalid_request");
    const limited = await post("/v1/messages", key, { stream: true, message: "" });
    expect(expectEnvelope(limited, 429, "rate_limited").message).toMatch(/2 requests per minute/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("ratelimit")).toBe(`"per-key";r=0;t=${limited.headers.get("retry-after")}`);
  });

  it("logs a streamed answer's upstream failure with its request id", async () => {
    upstreamStatus(500);
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const failed = await post("/v1/messages", key, { stream: true, message: "hi", user });
    const { request_id: requestId } = expectEnvelope(failed, 502, "upstream_error");
    const line = setup.app.logs
      .map((text) => JSON.parse(text))
      .find((entry) => entry.message === "stream failed" && entry.request_id === requestId);
    expect(line).toMatchObject({ level: "error", error: expect.any(String) });
  });

  it("a message route that only the REST adapter recognises (dot segments) refuses stream: true as before", async () => {
    const { key } = await setup.app.newKey({ tenant: ACME_TENANT });
    const path = "/v1/x/../messages";
    const plain = await rawPost(path, key, { stream: true, message: "hi", user });
    expect(expectEnvelope(plain, 400, "invalid_request").message).toBe(
      "stream: true is answered as text/event-stream by the REST API (POST /v1/messages)",
    );
    const withKey = await rawPost(path, key, { stream: true, message: "hi", user }, { "Idempotency-Key": "abc" });
    expect(expectEnvelope(withKey, 400, "invalid_request").message).toBe(
      "Idempotency-Key is not supported with stream: true; send one or the other",
    );
    const malformed = await rawPost(
      path,
      key,
      { stream: true, message: "hi", user },
      { "Idempotency-Key": "two words" },
    );
    expect(expectEnvelope(malformed, 400, "invalid_request").message).toBe(
      "Idempotency-Key: must be 1-255 printable ASCII characters without spaces",
    );
    expect(received).toHaveLength(0);
  });
});
