import type { IncomingMessage } from "node:http";

import type { ChatUpstream } from "@mga/core/conversations";
import type { Database } from "@mga/core/db";
import type { JobQueue } from "@mga/core/jobs";
import type { Observer } from "@mga/core/observe";
import type { ChatIdentities, SiteAccounts } from "@mga/core/partners/ports";

import { bearerToken } from "./pipeline/bearer-token";

/** The systems behind partner users (ports in core; local or HTTP adapters chosen by the host). */
export interface DirectoryPorts {
  siteAccounts: SiteAccounts;
  chatIdentities: ChatIdentities;
}

/**
 * Per-request context of every procedure. The REST host fills it from the HTTP request;
 * tests and the admin console build it directly.
 */
export interface ApiContext {
  db: Database;
  requestId: string;
  /** The API key as presented (Authorization: Bearer or X-API-Key), not yet checked. */
  presentedKey: string | undefined;
  /** The admin console's session cookie and CSRF header (staff procedures only). */
  staffSessionToken: string | undefined;
  csrfHeader: string | undefined;
  /** The client's address, for the sign-in throttles. */
  clientAddress: string;
  /** The raw Idempotency-Key header, validated by the routes that support it. */
  idempotencyKey: string | undefined;
  upstream: ChatUpstream;
  directory: DirectoryPorts;
  /** The durable job queue that finishes lifecycle operations and imports. */
  queue: JobQueue;
  /** Origin of the hosted chat application that launch URLs point to. */
  appUrl: string;
  /** Webhook endpoints at loopback or private addresses are accepted (WEBHOOK_ALLOW_PRIVATE_ADDRESSES). */
  allowPrivateWebhookAddresses?: boolean;
  /** Aborted when the client disconnects, so upstream work stops with it. */
  signal?: AbortSignal | undefined;
  /** The host's metrics and traces (rate-limit refusals); none when absent. */
  observer?: Observer | undefined;
  /**
   * What the procedure wants on its HTTP response besides the body: a success status other
   * than 200 (201, 202) and extra headers. An object, so that it survives tRPC copying the
   * context when a middleware extends it.
   */
  response: { status?: number; headers: Record<string, string> };
  /** What usage and the request log learn of this request as it runs (the request's own record). */
  record: RequestRecord;
}

/**
 * What a /v1 request's handling notes for usage and the request log (pipeline/request-record.ts):
 * identifiers, templates and counts only, never a body, a secret or anything a user typed. One
 * object shared by the request and its context, filled as the request goes and read by the host
 * when the response has finished.
 */
export interface RequestRecord {
  /** The matched procedure's route template ("GET /v1/conversations/{id}") and its group (OpenAPI tag). */
  route?: string;
  routeGroup?: string;
  /** The key, once authenticated. */
  keyId?: string;
  organizationId?: string;
  /** The spec's error code the request ended with (JSON error or terminal error frame). */
  errorCode?: string;
  answer?: "streamed" | "json";
  tokensUsed?: number;
  /** The conversation, operation, import or launch touched. */
  resourceId?: string;
  launch?: { integrationId: string; partnerUserId: string };
}

export interface ApiRequest extends IncomingMessage {
  requestId?: string;
  /** A JSON body, parsed and checked by the host. */
  body?: unknown;
  /** An HTML form body (the built-in site pages). */
  form?: URLSearchParams;
  /** The client's address as the host determined it (sign-in throttles). */
  clientAddress?: string;
  /** Set by the host: aborted when the client goes away before the response is sent. */
  clientGone?: AbortSignal;
  /** Filled while the request is handled (RequestRecord); read by the host once it has finished. */
  record?: RequestRecord;
}

export function presentedKeyOf(req: IncomingMessage): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization) {
    // A malformed Authorization header is presented as-is, so it fails as an invalid key.
    return bearerToken(authorization) ?? authorization;
  }
  const header = req.headers["x-api-key"];
  return Array.isArray(header) ? header[0] : header;
}

export interface ApiDeps {
  db: Database;
  upstream: ChatUpstream;
  directory: DirectoryPorts;
  queue: JobQueue;
  appUrl: string;
  /** The host's metrics and traces; none when absent. */
  observer?: Observer | undefined;
  allowPrivateWebhookAddresses?: boolean;
}

export function createContextFactory(deps: ApiDeps) {
  return ({ req }: { req: IncomingMessage }): ApiContext => {
    const header = req.headers["idempotency-key"];
    return {
      db: deps.db,
      upstream: deps.upstream,
      directory: deps.directory,
      queue: deps.queue,
      appUrl: deps.appUrl,
      allowPrivateWebhookAddresses: deps.allowPrivateWebhookAddresses === true,
      requestId: (req as ApiRequest).requestId ?? "",
      clientAddress: (req as ApiRequest).clientAddress ?? req.socket.remoteAddress ?? "unknown",
      presentedKey: presentedKeyOf(req),
      idempotencyKey: Array.isArray(header) ? header[0] : header,
      staffSessionToken: readCookie(req.headers.cookie, STAFF_COOKIE),
      csrfHeader: typeof req.headers["x-csrf-token"] === "string" ? req.headers["x-csrf-token"] : undefined,
      signal: (req as ApiRequest).clientGone,
      observer: deps.observer,
      response: { headers: {} },
      record: ((req as ApiRequest).record ??= {}),
    };
  };
}

export const STAFF_COOKIE = "mga_staff";

function readCookie(header: string | undefined, name: string): string | undefined {
  // Partners' servers send no cookies: nothing to parse on the /v1 path.
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      // A cookie we never set (malformed escapes): no session, as if it were absent.
      return undefined;
    }
  }
  return undefined;
}
