import { forEachOpenApiProcedure } from "trpc-to-openapi";

import { appRouter } from "../routers/app.router";
import { pathPattern } from "./path-pattern";

/**
 * The methods each /v1 path answers, read once from the routers' own OpenAPI metadata (what the
 * REST adapter serves), HEAD wherever GET is. The host answers any other method with 405 and
 * these in `Allow` (the adapter alone would say 404, as if the path did not exist).
 */
const ROUTES = new Map<string, { pattern: RegExp; template: string; methods: string[] }>();
forEachOpenApiProcedure(appRouter._def.procedures, ({ meta }) => {
  const { method, path } = meta.openapi;
  // One entry per path shape, whatever its parameters are called.
  const shape = path.replace(/\{\w+\}/g, "{}").toLowerCase();
  let route = ROUTES.get(shape);
  if (!route) ROUTES.set(shape, (route = { pattern: pathPattern(path), template: path, methods: [] }));
  route.methods.push(method, ...(method === "GET" ? ["HEAD"] : []));
});

/** The methods a /v1 path answers, or undefined when no route has this path. */
export function restMethodsOf(path: string): readonly string[] | undefined {
  for (const route of ROUTES.values()) if (route.pattern.test(path)) return route.methods;
  return undefined;
}

/**
 * The OpenAPI path template a /v1 path matches (`/v1/conversations/{conversationId}`), or
 * undefined: the route label of the host's request metrics, never the raw path (whose ids
 * would make one time series per conversation).
 */
export function restRouteOf(path: string): string | undefined {
  for (const route of ROUTES.values()) if (route.pattern.test(path)) return route.template;
  return undefined;
}
