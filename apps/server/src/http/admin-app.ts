import type { ServerResponse } from "node:http";
import { adminRouter, type ApiDeps, type ApiRequest, createContextFactory, toApiError } from "@mga/api";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import type { Logger } from "../log";
import type { IsTrustedProxy } from "./client-address";
import { healthz } from "./create-app";
import { logFailure, requestPipeline } from "./request-pipeline";
import { MAX_BODY_BYTES, parseJsonInput } from "./request-input";

/**
 * The admin listener (ADMIN_API_PORT, loopback by default): the staff console's typed tRPC
 * (`/trpc/staff.*`, `/trpc/system.*`), never reachable on the public port. Batching is off, so
 * one HTTP request is one procedure call and every sign-in attempt is counted as one. The
 * console forwards its visitor's address signed with a key derived from SECRET_KEY
 * (client-address.ts); X-Forwarded-For only from TRUST_PROXY, as on the public listener.
 */
export function createAdminApp(options: ApiDeps & { logger: Logger; trustedProxy?: IsTrustedProxy }) {
  const createContext = createContextFactory(options);
  const trustedProxy = options.trustedProxy ?? (() => false);
  const consoleKey = options.db.secrets.macKey("console-forwarding");
  return requestPipeline({ logger: options.logger, trustedProxy, consoleKey }, async (req: ApiRequest, res: ServerResponse, path) => {
    if (path === "/healthz") return healthz(req, res);
    if (!path.startsWith("/trpc/")) return false;
    // A query's input travels as JSON in the URL: the same checks as a body.
    const input = new URL(req.url ?? "/", "http://admin").searchParams.get("input");
    if (input !== null) parseJsonInput(input, "input");
    await nodeHTTPRequestHandler({
      req,
      res,
      router: adminRouter,
      path: path.slice("/trpc/".length),
      allowBatching: false,
      maxBodySize: MAX_BODY_BYTES,
      createContext: ({ req: incoming }) => createContext({ req: incoming }),
      onError: ({ error }) => {
        if (toApiError(error).status >= 500) logFailure(options.logger, req, error.cause ?? error);
      },
      // The console's cookie, and the statuses of domain errors (401, 403, …) rather than 500.
      responseMeta: ({ ctx, errors }) => {
        const headers = ctx?.response.headers ?? {};
        if (!errors[0]) return { headers };
        const mapped = toApiError(errors[0]);
        return { status: mapped.status, headers: { ...headers, ...mapped.headers } };
      },
    });
    return true;
  });
}
