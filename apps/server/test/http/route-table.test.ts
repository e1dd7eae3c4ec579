import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";

import type { ApiRequest } from "@mga/api";
import { isAppError } from "@mga/core/errors";

import { routeTable, type Route } from "../../src/http/route-table";

/** A route that records what it was called with. */
function route(method: Route["method"], path: string | RegExp, extra: Partial<Route> = {}) {
  const calls: Array<RegExpExecArray | null> = [];
  const r: Route = { method, path, handle: (_req, _res, match) => void calls.push(match), ...extra };
  return Object.assign(r, { calls });
}

const request = (method: string) => ({ method }) as ApiRequest;
const response = {} as ServerResponse;

describe("a route table", () => {
  const page = route("GET", "/site/login");
  const signIn = route("POST", "/site/login");
  const launch = route("GET", "/embed/launch", { head: false });
  const partner = route("GET", /^\/embed\/partner\/([a-z]+)$/, { template: "/embed/partner/{partner}" });
  const table = routeTable([page, signIn, launch, partner]);

  it("answers an exact path with the route of its method", async () => {
    expect(await table.dispatch(request("POST"), response, "/site/login")).toBe(true);
    expect(signIn.calls).toEqual([null]);
    expect(page.calls).toEqual([]);
  });

  it("answers a pattern's path, giving the route its match, and names it by its template", async () => {
    expect(await table.dispatch(request("GET"), response, "/embed/partner/acme")).toBe(true);
    expect(partner.calls.at(-1)?.[1]).toBe("acme");
    expect(table.templateOf("/embed/partner/acme")).toBe("/embed/partner/{partner}");
    expect(table.templateOf("/site/login")).toBe("/site/login");
  });

  it("answers HEAD with the GET route, except where a GET changes something", async () => {
    expect(await table.dispatch(request("HEAD"), response, "/site/login")).toBe(true);
    expect(page.calls.length).toBe(1);
    expect(table.methodsOf("/site/login")).toEqual(["GET", "HEAD", "POST"]);
    expect(table.methodsOf("/embed/launch")).toEqual(["GET"]);
    const refused = await table.dispatch(request("HEAD"), response, "/embed/launch").catch((error: unknown) => error);
    expect(isAppError(refused) && refused.status).toBe(405);
  });

  it("refuses a method its path does not answer with 405 and the ones it does", async () => {
    const refused = await table.dispatch(request("DELETE"), response, "/site/login").catch((error: unknown) => error);
    expect(isAppError(refused)).toBe(true);
    if (!isAppError(refused)) return;
    expect(refused.status).toBe(405);
    expect(refused.headers).toEqual({ Allow: "GET, HEAD, POST" });
  });

  it("leaves a path it does not have to the next handler (the /v1 surface)", async () => {
    expect(await table.dispatch(request("GET"), response, "/v1/me")).toBe(false);
    expect(table.methodsOf("/v1/me")).toBeUndefined();
    expect(table.templateOf("/v1/me")).toBeUndefined();
    expect(table.methodsOf("/embed/partner/ACME")).toBeUndefined();
  });
});
