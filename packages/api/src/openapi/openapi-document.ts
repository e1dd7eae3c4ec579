import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { z } from "zod";

import { appRouter } from "../routers/app.router";
import { streamEventSchema } from "../routers/conversations/conversations.types";
import { MESSAGE_ROUTES } from "../routers/conversations/message-routes";
import { webhookPayloadSchema } from "../routers/events/events.types";
import { errorEnvelopeSchema } from "../schemas/common";
import { REQUEST_TEXT_PATTERN } from "../schemas/request-text";
import { RESUME_PATH } from "../streams/resume-stream";
import type { ApiMeta } from "../trpc";
import { API_VERSION } from "./api-version";
import { LICENSE_NAME, LICENSE_PATH } from "./license";
import {
  ERROR_EXAMPLES,
  EXAMPLE_REQUEST_ID,
  OPERATION_EXAMPLES,
  RESUMED_FRAMES,
  RESUMED_FRAMES_EXAMPLE,
  type OperationExample,
} from "./operation-examples";
import { OPERATION_LINKS } from "./operation-links";
import { ERROR_STATUSES, errorStatusesOf, type ErrorStatus } from "./response-statuses";
import { addWebhooks, WEBHOOK_SIGNATURE_SCHEME, WEBHOOK_SIGNATURE_SECURITY } from "./webhooks-section";

/**
 * The machine-readable description of /v1 (spec section 9: version 1.0.0), generated from
 * the routers, then completed where trpc-to-openapi stops short: both auth headers as
 * alternative security schemes, each operation's success statuses and the error statuses it
 * can answer with (response-statuses.ts, from the procedure's meta), its scope, the error
 * envelope on every error response, an example of every request and response
 * (operation-examples.ts), the links from a response to the operations it leads to
 * (operation-links.ts), and the rules the server applies to a request that the generated
 * schemas leave out (the body as a whole, the text of every request string; see INPUT_RULES).
 * `baseUrl` is the public origin (PUBLIC_BASE_URL): the one server, and where the license is
 * served.
 */

/**
 * What the server checks before any route's schema, and what JSON Schema cannot say per field,
 * stated once for the whole API (docs/decisions.md, "OpenAPI document").
 */
const INPUT_RULES = [
  "**Methods.** A path answers only the methods listed for it, and HEAD wherever it answers GET. Any other method (OPTIONS, TRACE, DELETE on `/v1/me`, …) is `405 invalid_request` with an `Allow` header naming the methods the path has, decided before the body is read; an unknown path is 404.",
  "**Text.** No string of a request (a body's strings and keys at any depth, a path or query parameter) may contain a NUL character or an unpaired UTF-16 surrogate: 400 naming the field. Every request string's `pattern` says so; for the free-form `metadata` objects it is in their description.",
  "**Unknown fields.** An object whose schema says `additionalProperties: false` (every one but the free-form `metadata`) refuses other properties, and an operation refuses query parameters it does not list: 400 naming them.",
  "**Bodies.** JSON (`application/json`, any charset) of at most 1 MiB (413), nested at most 64 levels, without numbers JSON cannot represent (`1e400`); another content type is 415.",
  "**Lengths.** `minLength` and `maxLength` count UTF-16 code units, as the server does: a character outside the Basic Multilingual Plane (an emoji) counts as two.",
];

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
    description: [
      "Server-to-server API. Authenticate with `Authorization: Bearer <key>` or `X-API-Key: <key>`. Every JSON response carries `request_id`; every error is `{error: {code, message, request_id}}`.",
      "Every request is checked as follows, besides its operation's schemas:",
      INPUT_RULES.map((rule) => `- ${rule}`).join("\n"),
    ].join("\n\n"),
    version: API_VERSION,
    baseUrl,
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API key>" },
      apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "X-API-Key: <API key>" },
      [WEBHOOK_SIGNATURE_SCHEME]: WEBHOOK_SIGNATURE_SECURITY,
    },
    defs: { ErrorEnvelope: errorEnvelopeSchema, StreamEvent: streamEventSchema, WebhookPayload: webhookPayloadSchema },
  });
  document.info.license = { name: LICENSE_NAME, url: `${baseUrl}${LICENSE_PATH}` };
  document.servers = [{ url: baseUrl, description: "This service (its public origin, PUBLIC_BASE_URL)" }];

  const components = (document.components ??= {});
  // trpc-to-openapi's own error schemas describe a body this API never sends.
  for (const name of Object.keys(components.schemas ?? {})) {
    if (name.startsWith("error.")) delete components.schemas?.[name];
  }
  components.responses = Object.fromEntries(ERROR_STATUSES.map((status) => [`Error${status}`, errorResponse(status)]));

  const procedures = collectProcedures();
  const operationIds = operationIdsOf(document);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationLike>)) {
      const key = `${method.toUpperCase()} ${path}`;
      const procedure = procedures.get(key);
      const meta = procedure?.meta ?? {};
      const example = OPERATION_EXAMPLES[key];
      if (!example) throw new Error(`no example for ${key}: add one to operation-examples.ts`);
      addBodyRules(operation, procedure?.inputs ?? []);
      addRequestExamples(operation, example);
      const links = linksOf(key, operationIds);
      operation.responses = {
        ...successResponses(
          operation.responses["200"] as ResponseLike,
          meta,
          example,
          STREAMING_ROUTES.has(key),
          links,
        ),
        ...errorReferences(meta, operation, method),
      };
      if (key === `GET ${RESUME_PATH}`) operation.responses["200"] = EVENT_STREAM_ONLY;
      operation.security = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
      if (meta.scope) {
        operation["x-required-scope"] = meta.scope;
        operation.description = `${operation.description ?? ""}\n\nRequired scope: \`${meta.scope}\`.`.trim();
      }
    }
  }
  stateRequestText(document);
  addWebhooks(document);
  return document;
}

/** Each success status of the procedure, with its own description, the one response schema and the links. */
function successResponses(
  generated: ResponseLike,
  meta: ApiMeta,
  example: OperationExample,
  streams: boolean,
  links: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const statuses = Object.entries(meta.successStatuses ?? { 200: generated.description });
  return Object.fromEntries(
    statuses.map(([status, description]) => {
      const json = {
        ...generated.content?.["application/json"],
        example: example.responses[Number(status) as keyof OperationExample["responses"]],
      };
      const response = {
        ...generated,
        description,
        content: { ...generated.content, "application/json": json },
        ...(links ? { links } : {}),
      };
      return [status, streams && status === "200" ? withEventStream(response) : response];
    }),
  );
}

function errorReferences(meta: ApiMeta, operation: OperationLike, method: string): Record<string, unknown> {
  // The host reads the body of any POST, PUT or PATCH (even one whose route takes none) before the route: 413 and 415 apply to all.
  const readsBody = operation.requestBody !== undefined || ["post", "put", "patch"].includes(method);
  return Object.fromEntries(
    errorStatusesOf(meta, readsBody).map((status) => [
      String(status),
      { $ref: `#/components/responses/Error${status}` },
    ]),
  );
}

function errorResponse(status: ErrorStatus): ComponentResponse {
  const example = { error: { ...ERROR_EXAMPLES[status], request_id: EXAMPLE_REQUEST_ID } };
  return {
    description: ERROR_DESCRIPTIONS[status],
    ...(status === 429
      ? {
          headers: {
            "Retry-After": {
              description: "Seconds until the key's rate-limit window ends",
              schema: { type: "integer", minimum: 0 },
            },
          },
        }
      : {}),
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

/** Frames as both streamed routes and the resume write them. */
const FRAMES_IN_STREAM =
  "Each frame is `id: <opaque id>` and `data: <json>` followed by a blank line (clients that ignore ids see the frames alone). Comment lines may appear: `: keep-alive`, and `: reconnect` when the server is restarting (resume from the last id, GET /v1/conversations/{conversationId}/stream; a stream that ends without its terminal frame is resumed the same way).";

/**
 * The resume route answers an event stream only. Its schema is one frame (OpenAPI 3.1 has no
 * schema for a sequence), so its example is one frame too, and the stream as sent is shown in the
 * description: an example must match its schema.
 */
const EVENT_STREAM_ONLY = {
  description: `The answer's frames after the id, as a server-sent event stream, ending with its one terminal frame (public_api_complete, or error). ${FRAMES_IN_STREAM} Resumed after \`ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8.12\`, for example:\n\n\`\`\`\n${RESUMED_FRAMES_EXAMPLE}\`\`\``,
  content: {
    "text/event-stream": { schema: { $ref: "#/components/schemas/StreamEvent" }, example: RESUMED_FRAMES[0] },
  },
};

function withEventStream(success: unknown): unknown {
  const response = success as { description?: string; content?: Record<string, unknown> };
  return {
    ...response,
    description: `The answer as JSON, or with \`stream: true\` as a server-sent event stream, in order: public_api_conversation (POST /v1/messages only), content (zero or more), content_postprocessed, complete, public_api_complete; or, after a failure, one terminal \`error\` frame. ${FRAMES_IN_STREAM} The answer does not depend on the connection: it is generated to its end and stored whether or not the client stays (POST …/cancel stops it).`,
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
  parameters?: Array<{ name: string; in: string; example?: unknown; schema?: unknown }>;
  requestBody?: { content?: Record<string, Record<string, unknown>> };
  security?: unknown;
  description?: string;
  [extension: `x-${string}`]: unknown;
}

interface ProcedureFacts {
  meta: ApiMeta;
  /** Each `.input()` of the procedure; tRPC parses the request with every one of them. */
  inputs: z.ZodType[];
}

function collectProcedures(): Map<string, ProcedureFacts> {
  const out = new Map<string, ProcedureFacts>();
  for (const procedure of Object.values(appRouter._def.procedures) as unknown as Array<{
    _def: { meta?: ApiMeta; inputs: z.ZodType[] };
  }>) {
    const meta = procedure._def.meta;
    if (meta?.openapi) out.set(`${meta.openapi.method} ${meta.openapi.path}`, { meta, inputs: procedure._def.inputs });
  }
  return out;
}

/**
 * What a procedure's input says of the body as a whole. trpc-to-openapi builds the body by
 * leaving the path parameters out of the input, and for a refined input (PATCH team, profile
 * changes) it rebuilds a plain object: strictness and the input's meta are lost. A strict input
 * refuses unknown body properties; `refuseEmptyBody` (schemas/common.ts) sets `minProperties`.
 */
function addBodyRules(operation: OperationLike, inputs: z.ZodType[]): void {
  const body = operation.requestBody?.content?.["application/json"]?.schema as JsonSchema | undefined;
  if (!body) return;
  if (inputs.some((input) => input instanceof z.ZodObject && input._zod.def.catchall instanceof z.ZodNever))
    body.additionalProperties = false;
  for (const input of inputs) {
    const minProperties = input.meta()?.minProperties;
    if (typeof minProperties !== "number") continue;
    // minProperties counts any property: it says "one of these" only when none is required.
    if (body.required?.length)
      throw new Error(`a body with required properties (${body.required.join(", ")}) cannot state minProperties`);
    body.minProperties = minProperties;
  }
}

function operationIdsOf(document: OpenAPIObject): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, { operationId?: string }>)) {
      if (operation.operationId) ids.set(`${method.toUpperCase()} ${path}`, operation.operationId);
    }
  }
  return ids;
}

function linksOf(key: string, operationIds: Map<string, string>): Record<string, unknown> | undefined {
  const links = OPERATION_LINKS[key];
  if (!links) return undefined;
  return Object.fromEntries(
    Object.entries(links).map(([name, link]) => {
      const operationId = operationIds.get(link.to);
      if (!operationId) throw new Error(`${key}: link ${name} leads to ${link.to}, which the document does not have`);
      return [name, { operationId, parameters: link.parameters, description: link.description }];
    }),
  );
}

/**
 * The input reader's text rule (schemas/request-text.ts) on every string a request can carry
 * that no pattern or closed list already confines: path and query parameters, and the body's
 * strings and keys, through the components it uses. A component a response uses too would then
 * describe the response as well: the document fails to build rather than say so silently.
 */
function stateRequestText(document: OpenAPIObject): void {
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const requestComponents = new Set<string>();
  const responseComponents = new Set<string>();
  const reach = (schema: unknown, seen: Set<string>, onString?: (schema: JsonSchema) => void) => {
    walkSchema(schema, (node) => {
      const ref = typeof node.$ref === "string" ? node.$ref.replace("#/components/schemas/", "") : undefined;
      if (ref !== undefined) {
        if (!seen.has(ref)) {
          seen.add(ref);
          reach(components[ref], seen, onString);
        }
        return;
      }
      if (onString && isOpenString(node)) onString(node);
    });
  };
  const addPattern = (schema: JsonSchema) => {
    schema.pattern = REQUEST_TEXT_PATTERN;
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, OperationLike>)) {
      for (const parameter of operation.parameters ?? []) {
        // Headers are not request text: Node refuses a NUL in one before the server sees it.
        if (parameter.in === "path" || parameter.in === "query") reach(parameter.schema, requestComponents, addPattern);
      }
      reach(operation.requestBody?.content?.["application/json"]?.schema, requestComponents, addPattern);
      for (const response of Object.values(operation.responses)) reach(response, responseComponents);
    }
  }
  const shared = [...requestComponents].filter(
    (name) => responseComponents.has(name) && hasOpenString(components[name]),
  );
  if (shared.length)
    throw new Error(
      `components ${shared.join(", ")} describe requests and responses: give the request side its own schema`,
    );
}

/** A string schema that admits any text: no pattern, no enum, no const. */
function isOpenString(schema: JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.includes("string") && schema.pattern === undefined && schema.enum === undefined && schema.const === undefined
  );
}

function hasOpenString(schema: unknown): boolean {
  let found = false;
  walkSchema(schema, (node) => {
    if (isOpenString(node) || node.pattern === REQUEST_TEXT_PATTERN) found = true;
  });
  return found;
}

/** Calls `visit` on `schema` and on every subschema in it (not through $ref). */
function walkSchema(schema: unknown, visit: (schema: JsonSchema) => void): void {
  if (!schema || typeof schema !== "object") return;
  const node = schema as JsonSchema;
  visit(node);
  for (const keyword of ["items", "additionalProperties", "propertyNames", "not", "contains"] as const)
    walkSchema(node[keyword], visit);
  for (const keyword of ["anyOf", "oneOf", "allOf", "prefixItems"] as const)
    for (const sub of node[keyword] ?? []) walkSchema(sub, visit);
  for (const sub of Object.values(node.properties ?? {})) walkSchema(sub, visit);
  // A response object: its media types' schemas.
  for (const media of Object.values(node.content ?? {})) walkSchema(media.schema, visit);
}

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  required?: string[];
  minProperties?: number;
  additionalProperties?: unknown;
  properties?: Record<string, unknown>;
  items?: unknown;
  propertyNames?: unknown;
  not?: unknown;
  contains?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
  allOf?: unknown[];
  prefixItems?: unknown[];
  content?: Record<string, { schema?: unknown }>;
}
