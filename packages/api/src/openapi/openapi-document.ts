import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { errorEnvelopeSchema } from "../schemas/common";
import { appRouter } from "../routers/app.router";
import { streamEventSchema } from "../routers/conversations/conversations.types";
import { MESSAGE_ROUTES } from "../routers/conversations/message-routes";
import type { ApiMeta } from "../trpc";
import { API_VERSION } from "./api-version";
import { LICENSE_NAME, LICENSE_PATH } from "./license";
import { ERROR_EXAMPLES, EXAMPLE_REQUEST_ID, OPERATION_EXAMPLES, type OperationExample } from "./operation-examples";
import { ERROR_STATUSES, errorStatusesOf, type ErrorStatus } from "./response-statuses";

/**
 * The machine-readable description of /v1 (spec section 9: version 1.0.0), generated from
 * the routers, then completed where trpc-to-openapi stops short: both auth headers as
 * alternative security schemes, each operation's success statuses and the error statuses it
 * can answer with (response-statuses.ts, from the procedure's meta), its scope, the error
 * envelope on every error response, and an example of every request and response
 * (operation-examples.ts). `baseUrl` is the public origin (PUBLIC_BASE_URL): the one server,
 * and where the license is served.
 */

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: "Invalid request (invalid_request); the message names the field",
  401: "Missing, invalid or revoked API key (unauthorized)",
  403: "The key lacks the scope this operation needs, or may not use this integration (forbidden)",
  404: "Not found for this key (not_found, team_not_found)",
  409: "Conflict (idempotency_conflict, identity_conflict, team_in_use, team_archived, or a change made by another request at the same moment)",
  413: "Request body larger than 1 MiB (invalid_request)",
  415: "Request body not sent as Content-Type: application/json (invalid_request)",
  429: "Rate limit exceeded (rate_limited); see Retry-After",
  500: "Internal failure (internal_error)",
  502: "Upstream service failed (upstream_error)",
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
  document.info.license = { name: LICENSE_NAME, url: `${baseUrl}${LICENSE_PATH}` };
  document.servers = [{ url: baseUrl, description: "This service (its public origin, PUBLIC_BASE_URL)" }];

  const components = (document.components ??= {});
  // trpc-to-openapi's own error schemas describe a body this API never sends.
  for (const name of Object.keys(components.schemas ?? {})) {
    if (name.startsWith("error.")) delete components.schemas?.[name];
  }
  components.responses = Object.fromEntries(ERROR_STATUSES.map((status) => [`Error${status}`, errorResponse(status)]));

  const metaByRoute = collectMeta();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationLike>)) {
      const key = `${method.toUpperCase()} ${path}`;
      const meta = metaByRoute.get(key) ?? {};
      const example = OPERATION_EXAMPLES[key];
      if (!example) throw new Error(`no example for ${key}: add one to operation-examples.ts`);
      addRequestExamples(operation, example);
      operation.responses = { ...successResponses(operation.responses["200"] as ResponseLike, meta, example, STREAMING_ROUTES.has(key)), ...errorReferences(meta, operation) };
      operation.security = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
      if (meta.scope) {
        operation["x-required-scope"] = meta.scope;
        operation.description = `${operation.description ?? ""}\n\nRequired scope: \`${meta.scope}\`.`.trim();
      }
    }
  }
  return document;
}

/** Each success status of the procedure, with its own description and the one response schema. */
function successResponses(generated: ResponseLike, meta: ApiMeta, example: OperationExample, streams: boolean): Record<string, unknown> {
  const statuses = Object.entries(meta.successStatuses ?? { 200: generated.description });
  return Object.fromEntries(
    statuses.map(([status, description]) => {
      const json = { ...generated.content?.["application/json"], example: example.responses[Number(status) as keyof OperationExample["responses"]] };
      const response = { ...generated, description, content: { ...generated.content, "application/json": json } };
      return [status, streams && status === "200" ? withEventStream(response) : response];
    }),
  );
}

function errorReferences(meta: ApiMeta, operation: OperationLike): Record<string, unknown> {
  return Object.fromEntries(errorStatusesOf(meta, operation.requestBody !== undefined).map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]));
}

function errorResponse(status: ErrorStatus): ComponentResponse {
  const example = { error: { ...ERROR_EXAMPLES[status], request_id: EXAMPLE_REQUEST_ID } };
  return {
    description: ERROR_DESCRIPTIONS[status],
    ...(status === 429 ? { headers: { "Retry-After": { description: "Seconds until the key's rate-limit window ends", schema: { type: "integer", minimum: 0 } } } } : {}),
    content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" }, example } },
  };
}

function addRequestExamples(operation: OperationLike, example: OperationExample): void {
  for (const parameter of operation.parameters ?? []) {
    const value = example.parameters?.[parameter.name];
    if (value !== undefined) parameter.example = value;
  }
  const json = operation.requestBody?.content?.["application/json"];
  if (json) {
    if (!example.body) throw new Error("an operation with a request body needs a body example");
    json.example = example.body;
  }
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

type ComponentResponse = NonNullable<NonNullable<OpenAPIObject["components"]>["responses"]>[string];

interface ResponseLike {
  description: string;
  content?: Record<string, Record<string, unknown>>;
}

interface OperationLike {
  responses: Record<string, unknown>;
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  requestBody?: { content?: Record<string, Record<string, unknown>> };
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
