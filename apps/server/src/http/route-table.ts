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
  const matches = (route: Route, path: string) =>
    typeof route.path === "string" ? route.path === path : route.path.test(path);
  const methodsOf = (path: string) => {
    const methods = routes
      .filter((route) => matches(route, path))
      .flatMap((route) => (route.method === "GET" && route.head !== false ? ["GET", "HEAD"] : [route.method]));
    return methods.length ? [...new Set(methods)] : undefined;
  };
  return {
    methodsOf,
    templateOf(path) {
      const route = routes.find((candidate) => matches(candidate, path));
      if (!route) return undefined;
      return typeof route.path === "string" ? route.path : (route.template ?? "pattern");
    },
    async dispatch(req, res, path) {
      for (const route of routes) {
        const answers =
          route.method === req.method || (req.method === "HEAD" && route.method === "GET" && route.head !== false);
        if (!answers || !matches(route, path)) continue;
        await route.handle(req, res, typeof route.path === "string" ? null : route.path.exec(path));
        return true;
      }
      const allowed = methodsOf(path);
      if (allowed) throw methodNotAllowed(req.method, allowed);
      return false;
    },
  };
}

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
