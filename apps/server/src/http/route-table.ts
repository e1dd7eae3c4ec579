import type { ServerResponse } from "node:http";

import type { ApiRequest } from "@mga/api";
import { AppError } from "@mga/core/errors";

/**
 * A listener's routes as data, so that every path knows the methods it answers: a method the
 * path does not answer gets 405 with those in `Allow` (refused by the request pipeline before
 * the body is read), never a 404 that reads as if the path did not exist, and never a 5xx.
 * HEAD is answered wherever GET is, by the GET route itself (Node sends no body for a HEAD
 * request), except where a GET changes something (`head: false`).
 */
export interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** An exact path, or a pattern whose match the handler receives. */
  path: string | RegExp;
  /** A pattern's route template for metrics and traces (`/embed/partner/{partner}`); an exact path is its own. */
  template?: string;
  head?: false;
  handle(req: ApiRequest, res: ServerResponse, match: RegExpExecArray | null): Promise<void> | void;
}

export interface RouteTable {
  /** The methods a path answers, or undefined for a path no route has. */
  methodsOf(path: string): readonly string[] | undefined;
  /** The route template of a path (metrics and traces label requests by it), or undefined for a path no route has. */
  templateOf(path: string): string | undefined;
  /** Answers with the route of this path and method: false when no route has the path. */
  dispatch(req: ApiRequest, res: ServerResponse, path: string): Promise<boolean>;
}

export function routeTable(routes: readonly Route[]): RouteTable {
  // Every request asks (its methods, its template, its route), /v1 ones included, which no route
  // here answers: exact paths are looked up in a map, and only the few patterns are tried.
  const exact = new Map<string, Route[]>();
  const patterns: Route[] = [];
  for (const route of routes) {
    if (typeof route.path === "string") exact.set(route.path, [...(exact.get(route.path) ?? []), route]);
    else patterns.push(route);
  }
  /** The routes of a path, in the order given (an exact path's before the patterns'). */
  const routesOf = (path: string): readonly Route[] => {
    const matched = exact.get(path) ?? NO_ROUTES;
    const byPattern = patterns.filter((route) => (route.path as RegExp).test(path));
    return byPattern.length === 0 ? matched : [...matched, ...byPattern];
  };
  const methodsOf = (path: string) => {
    const found = routesOf(path);
    if (found.length === 0) return undefined;
    const methods = found.flatMap((route) =>
      route.method === "GET" && route.head !== false ? ["GET", "HEAD"] : [route.method],
    );
    return [...new Set(methods)];
  };
  return {
    methodsOf,
    templateOf(path) {
      const route = routesOf(path)[0];
      if (!route) return undefined;
      return typeof route.path === "string" ? route.path : (route.template ?? "pattern");
    },
    async dispatch(req, res, path) {
      const candidates = routesOf(path);
      if (candidates.length === 0) return false;
      for (const route of candidates) {
        const answers =
          route.method === req.method || (req.method === "HEAD" && route.method === "GET" && route.head !== false);
        if (!answers) continue;
        await route.handle(req, res, typeof route.path === "string" ? null : route.path.exec(path));
        return true;
      }
      throw methodNotAllowed(req.method, methodsOf(path) ?? []);
    },
  };
}

const NO_ROUTES: readonly Route[] = [];

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** 405 in the spec's envelope (code invalid_request: the spec lists no other for it), with `Allow`. */
export function methodNotAllowed(method: string | undefined, allowed: readonly string[]): AppError {
  const listed = [...allowed].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)).join(", ");
  return new AppError(
    "invalid_request",
    `${method ?? "this method"} is not allowed on this path; it answers ${listed}`,
    { status: 405, headers: { Allow: listed } },
  );
}
