import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { AppError } from "@mga/core/errors";

import type { ApiRequest } from "../../src/context";
import { embedApiRoutes } from "../../src/hosted/embed/embed-api-routes";
import { jsonRoute } from "../../src/hosted/hosted-route";
import { siteApiRoutes } from "../../src/hosted/site/site-api-routes";
import { buildOpenApiDocument } from "../../src/openapi/openapi-document";
import { bearerToken } from "../../src/pipeline/bearer-token";

/**
 * The hosted chat's and the built-in site's JSON routes (issue 28 item 6): each parses its
 * input with a zod schema and checks its result against its output schema, as /v1's
 * procedures do, and none of them is part of the public document.
 */
function fakeResponse() {
  const sent = {
    status: 0,
    headers: {} as Record<string, unknown>,
    body: undefined as string | undefined,
    ended: false,
  };
  const res = {
    set statusCode(value: number) {
      sent.status = value;
    },
    setHeader(name: string, value: unknown) {
      sent.headers[name.toLowerCase()] = value;
    },
    end(text?: string) {
      sent.body = text;
      sent.ended = true;
    },
  } as unknown as ServerResponse;
  return { res, sent };
}
const request = (body: unknown, authorization?: string) =>
  ({ requestId: "req_1", body, headers: authorization ? { authorization } : {} }) as unknown as ApiRequest;

const echo = (result: unknown) =>
  jsonRoute({
    method: "POST",
    path: "/site/api/echo",
    caller(req) {
      if (bearerToken(req.headers.authorization) !== "good") throw new AppError("unauthorized", "who are you");
      return "someone";
    },
    read: (req) => req.body,
    input: z.strictObject({ word: z.string().min(1) }),
    refusal: 'send {"word": "…"}',
    output: z.strictObject({ request_id: z.string(), word: z.string() }),
    run: async () => ({ status: 201, body: result as { request_id: string; word: string } }),
  });

describe("a hosted JSON route", () => {
  it("writes its checked result as JSON, never cached", async () => {
    const { res, sent } = fakeResponse();
    await echo({ request_id: "req_1", word: "hi" }).handle(request({ word: "hi" }, "Bearer good"), res, null);
    expect(sent).toMatchObject({
      status: 201,
      body: '{"request_id":"req_1","word":"hi"}',
      headers: { "content-type": "application/json", "cache-control": "no-store" },
    });
  });

  it("checks the caller before the input, and refuses a bad input with what to send", async () => {
    await expect(echo({}).handle(request({ nope: 1 }, "Bearer bad"), fakeResponse().res, null)).rejects.toMatchObject({
      code: "unauthorized",
    });
    await expect(echo({}).handle(request({ nope: 1 }, "Bearer good"), fakeResponse().res, null)).rejects.toMatchObject({
      code: "invalid_request",
      message: 'send {"word": "…"}',
    });
  });

  it("never sends a result outside its output schema: that is a 500 of ours", async () => {
    const { res, sent } = fakeResponse();
    const failure = await echo({ request_id: "req_1", word: "hi", secret: "s3cr3t" })
      .handle(request({ word: "hi" }, "Bearer good"), res, null)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(AppError);
    expect(sent.ended).toBe(false);
  });
});

describe("the bearer token", () => {
  it("is read in one place: the scheme in any case, one token, nothing else", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Bearer  abc ")).toBe("abc");
    expect(bearerToken("Bearer a b")).toBeUndefined();
    expect(bearerToken("Basic abc")).toBeUndefined();
    expect(bearerToken("Bearer")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe("the hosted routes", () => {
  const db = {} as never;
  const routes = [
    ...embedApiRoutes({ db, upstream: {} as never, siteLoginUrl: "/site/login" }),
    ...siteApiRoutes({ db }),
  ];

  it("are under /embed/api and /site/api only, and none is in the public document", () => {
    const paths = routes.map((route) => String(route.path));
    expect(
      paths.every(
        (p) => p.startsWith("/embed/api/") || p.startsWith("/^\\/embed\\/api\\/") || p.startsWith("/site/api/"),
      ),
    ).toBe(true);
    const documented = Object.keys(buildOpenApiDocument("http://api.test").paths ?? {});
    expect(documented.filter((p) => p.startsWith("/embed") || p.startsWith("/site"))).toEqual([]);
  });
});
