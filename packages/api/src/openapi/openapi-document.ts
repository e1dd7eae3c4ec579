import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { errorEnvelopeSchema } from "../schemas/common";
import { appRouter } from "../routers/app.router";
import { streamEventSchema } from "../routers/conversations/conversations.types";
import { MESSAGE_ROUTES } from "../routers/conversations/message-routes";
import type { ApiMeta } from "../trpc";
import { API_VERSION } from "./api-version";

/**
 * The machine-readable description of /v1 (spec section 9: version 1.0.0), generated from
 * the routers, then completed where trpc-to-openapi stops short: both auth headers as
 * alternative security schemes, the real success status of each operation, its scope, and
 * the error envelope on every error response.
 */

const ERROR_DESCRIPTIONS: Record<string, string> = {
  "400": "Invalid request (invalid_request); the message names the field",
  "401": "Missing, invalid or revoked API key (unauthorized)",
  "403": "The key lacks the scope this operation needs (forbidden)",
  "404": "Not found for this key (not_found)",
  "409": "Conflict (idempotency_conflict, identity_conflict, team_in_use, team_archived)",
  "429": "Rate limit exceeded (rate_limited); see Retry-After",
  "500": "Internal failure (internal_error)",
  "502": "Upstream service failed (upstream_error)",
};

export function buildOpenApiDocument(baseUrl: string): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: "Mortgage-guideline assistant: Conversation and Partner-Embedding API",
    description:
      "Server-to-server API. Authenticate with `Authorization: Bearer <key>` or `X-API-Key: <key>`. Every JSON response carries `request_id`; every error is `{error: {code, message, request_id}}`.",
    version: API_VERSION,
    baseUrl,
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API key>" },
      apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "X-API-Key: <API key>" },
    },
    defs: { ErrorEnvelope: errorEnvelopeSchema, StreamEvent: streamEventSchema },
  });

  const components = (document.components ??= {});
  // trpc-to-openapi's own error schemas describe a body this API never sends.
  for (const name of Object.keys(components.schemas ?? {})) {
    if (name.startsWith("error.")) delete components.schemas?.[name];
  }
  components.responses = Object.fromEntries(
    Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => [`Error${status}`, { description, content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } } }]),
  );

  const metaByRoute = collectMeta();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationLike>)) {
      const meta = metaByRoute.get(`${method.toUpperCase()} ${path}`);
      const success = operation.responses["200"];
      const status = String(meta?.successStatus ?? 200);
      const responses: Record<string, unknown> = { [status]: STREAMING_ROUTES.has(`${method.toUpperCase()} ${path}`) ? withEventStream(success) : success };
      for (const code of Object.keys(ERROR_DESCRIPTIONS)) {
        if (code === "403" && !meta?.scope) continue;
        responses[code] = { $ref: `#/components/responses/Error${code}` };
      }
      operation.responses = responses;
      operation.security = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
      if (meta?.scope) {
        operation["x-required-scope"] = meta.scope;
        operation.description = `${operation.description ?? ""}\n\nRequired scope: \`${meta.scope}\`.`.trim();
      }
    }
  }
  return document;
}

/** Routes (`POST <path>`) that answer `stream: true` with text/event-stream (served by apps/server, not the adapter); the GET of the same path does not. */
const STREAMING_ROUTES = new Set<string>(MESSAGE_ROUTES.map((route) => `POST ${route.path}`));

function withEventStream(success: unknown): unknown {
  const response = success as { description?: string; content?: Record<string, unknown> };
  return {
    ...response,
    description:
      "The answer as JSON, or with `stream: true` as a server-sent event stream of frames `data: <json>` followed by a blank line, in order: public_api_conversation (POST /v1/messages only), content (zero or more), content_postprocessed, complete, public_api_complete; or, after a failure, one terminal `error` frame. Comment lines (`: keep-alive`) may appear.",
    content: {
      ...response.content,
      "text/event-stream": {
        // One schema per frame (components StreamEvent*), a oneOf with a discriminator on `type`.
        schema: { $ref: "#/components/schemas/StreamEvent" },
      },
    },
  };
}

interface OperationLike {
  responses: Record<string, unknown>;
  security?: unknown;
  description?: string;
  [extension: `x-${string}`]: unknown;
}

function collectMeta(): Map<string, ApiMeta> {
  const out = new Map<string, ApiMeta>();
  for (const procedure of Object.values(appRouter._def.procedures) as unknown as Array<{ _def: { meta?: ApiMeta } }>) {
    const meta = procedure._def.meta;
    if (meta?.openapi) out.set(`${meta.openapi.method} ${meta.openapi.path}`, meta);
  }
  return out;
}
