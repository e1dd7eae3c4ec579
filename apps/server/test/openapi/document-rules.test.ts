import { randomUUID } from "node:crypto";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { buildOpenApiDocument } from "@mga/api";
import { SCOPES } from "@mga/core/keys";
import { bindLaunchKey } from "@mga/core/launches";
import { createIntegration } from "@mga/core/partners/integrations";
import { AGENCY_SOURCE_TYPES } from "@mga/core/sources";

import { ACME_TENANT } from "../support/tenants";
import type { UntypedJson } from "../support/untyped-json";
import { answer, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * The OpenAPI document against the running server (and PostgreSQL): for each rule the document
 * states about a request (unknown properties, a body that may not be empty, the Idempotency-Key
 * format, the text of every string, blank names, closed lists such as the agency source types),
 * requests are generated from the document's own examples, one rule broken or kept at a time.
 * The document's schemas (a JSON Schema validator, not the server's code) say whether each
 * request is valid; the server must then agree: an invalid one is refused (400; a path
 * parameter naming nothing may be 403 or 404), a valid one is not refused for a reason a schema
 * could state (no 400), and never a 5xx. Every disagreement is listed, with its request.
 * The links of the document are followed from real responses the same way.
 */
const setup = useAppWithMockedUpstream();

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = Array<string | number>;
interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: Json[];
  properties?: Record<string, Schema>;
  items?: Schema;
  propertyNames?: Schema;
  additionalProperties?: Schema | boolean;
  minProperties?: number;
  anyOf?: Schema[];
}
interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: Schema;
  example?: Json;
}
interface Link {
  operationId: string;
  parameters: Record<string, string>;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { schema: Schema; example: Json } } };
  responses: Record<string, { links?: Record<string, Link> }>;
}
interface DocumentedOperation {
  key: string;
  method: string;
  template: string;
  operation: Operation;
}

const document = buildOpenApiDocument("http://127.0.0.1") as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const operations: DocumentedOperation[] = Object.entries(document.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${template}`,
    method: method.toUpperCase(),
    template,
    operation,
  })),
);
const byOperationId = new Map(operations.map((entry) => [entry.operation.operationId, entry]));
const resolve = (schema: Schema): Schema =>
  schema.$ref
    ? resolve(document.components.schemas[schema.$ref.replace("#/components/schemas/", "")] as Schema)
    : schema;

// --- what the document says: JSON Schema 2020-12 (OpenAPI 3.1), patterns with the u flag ---
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema({ $id: "openapi", components: document.components });
const validators = new WeakMap<object, ValidateFunction>();
function documentAccepts(schema: Schema, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    const absolute = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object;
    validate = ajv.compile(absolute);
    validators.set(schema, validate);
  }
  return validate(value) as boolean;
}

// --- the fixture: what the document's examples name exists, and a key that may do everything ---
const INTEGRATION = "acme-los";
const TEAM = "loan-officers";
const USER = "lo-1042";
const USER_EMAIL = "jordan.lee@acme-lending.example";
/** Deleted, then reprovisioned, by the lifecycle routes; disabled by PATCH user: kept apart from USER, whom launches need active. */
const LEAVER = "lo-3001";
const PATCHED = "lo-4001";
let key: string;
let pathValues: Record<string, string>;

beforeAll(async () => {
  const app = setup.app;
  const created = await app.newKey({
    scopes: [...SCOPES],
    tenant: { ...ACME_TENANT, enabledSources: [...AGENCY_SOURCE_TYPES] },
    rateLimitPerMinute: 100_000,
  });
  key = created.key;
  await createIntegration(app.t.db, { organizationId: created.organizationId, slug: INTEGRATION });
  await bindLaunchKey(app.t.db, { apiKeyId: created.id, publicName: INTEGRATION });
  const v1 = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method,
      key,
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const base = `/v1/integrations/${INTEGRATION}`;
  expect((await v1("PUT", `${base}/teams/${TEAM}`, { name: "Loan officers" })).status).toBe(201);
  for (const [id, email] of [
    [USER, USER_EMAIL],
    [LEAVER, `${LEAVER}@acme-lending.example`],
    [PATCHED, `${PATCHED}@acme-lending.example`],
  ] as const) {
    const user = await v1("PUT", `${base}/users/${id}`, { email, team_external_id: TEAM });
    expect(user.status, user.text).toBe(201);
  }
  const conversation = await v1("POST", "/v1/conversations", { user: { external_user_id: USER } });
  const operation = await v1(
    "POST",
    `${base}/users/${USER}/profile-changes`,
    { name: "Jordan Lee" },
    { "Idempotency-Key": randomUUID() },
  );
  const job = await v1(
    "POST",
    `${base}/user-imports`,
    { users: [{ external_user_id: "lo-5001", email: "lo-5001@acme-lending.example" }] },
    { "Idempotency-Key": randomUUID() },
  );
  expect([conversation.status, operation.status, job.status]).toEqual([201, 202, 202]);
  pathValues = {
    integration: INTEGRATION,
    external_team_id: TEAM,
    external_user_id: USER,
    conversationId: conversation.body.conversation_id,
    operation_id: operation.body.operation.operation_id,
    job_id: job.body.import.job_id,
  };
});

beforeEach(() => upstreamAnswers(answer()));

/** The user each route works on, where it is not USER. */
function pathValueFor(entry: DocumentedOperation, name: string): string {
  if (name === "external_user_id" && /\/(deletions|reprovision)$/.test(entry.template)) return LEAVER;
  if (name === "external_user_id" && entry.key === "PATCH /v1/integrations/{integration}/users/{external_user_id}")
    return PATCHED;
  const value = pathValues[name];
  if (value === undefined) throw new Error(`no fixture value for the path parameter ${name}: add one`);
  return value;
}

/** The request the document's example describes, against the fixture. */
interface Request {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: Json;
}
function exampleRequest(entry: DocumentedOperation): Request {
  const parameters = entry.operation.parameters ?? [];
  const path = Object.fromEntries(
    parameters.filter((p) => p.in === "path").map((p) => [p.name, pathValueFor(entry, p.name)]),
  );
  const query = Object.fromEntries(
    parameters.filter((p) => p.in === "query" && p.example !== undefined).map((p) => [p.name, String(p.example)]),
  );
  const headers: Record<string, string> = {};
  const body = entry.operation.requestBody?.content["application/json"].example;
  // A returning user needs an address of their own: the example's belongs to USER.
  if (entry.template.endsWith("/reprovision"))
    return { path, query, headers, body: { email: `${LEAVER}.returned@acme-lending.example` } };
  return body === undefined ? { path, query, headers } : { path, query, headers, body };
}

/**
 * The request as it is sent: where the operation takes an Idempotency-Key and the case does not
 * set one, a new key, so that no request is answered as a replay (or a 409) of another.
 */
function prepared(entry: DocumentedOperation, request: Request): Request {
  if (
    request.headers["Idempotency-Key"] !== undefined ||
    !(entry.operation.parameters ?? []).some((p) => p.name === "Idempotency-Key")
  )
    return request;
  return { ...request, headers: { ...request.headers, "Idempotency-Key": randomUUID() } };
}

async function send(entry: DocumentedOperation, request: Request) {
  const path = entry.template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(request.path[name] as string),
  );
  const query = new URLSearchParams(request.query).toString();
  return setup.app.request(`${path}${query ? `?${query}` : ""}`, {
    method: entry.method,
    key,
    headers: { ...(request.body === undefined ? {} : { "Content-Type": "application/json" }), ...request.headers },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
}

/** Whether the document accepts the request: its parameters (path, query, Idempotency-Key) and its body. */
function documentAcceptsRequest(entry: DocumentedOperation, request: Request): boolean {
  for (const parameter of entry.operation.parameters ?? []) {
    const value =
      parameter.in === "path"
        ? request.path[parameter.name]
        : parameter.in === "query"
          ? request.query[parameter.name]
          : request.headers[parameter.name];
    if (value === undefined) {
      if (parameter.required) return false;
      continue;
    }
    // Query integers and booleans arrive as text; only text parameters are varied here.
    if (resolve(parameter.schema).type === "string" && !documentAccepts(parameter.schema, value)) return false;
  }
  const body = entry.operation.requestBody?.content["application/json"].schema;
  return !body || documentAccepts(body, request.body);
}

// --- one rule at a time: variants of the example requests ----------------------------------------
interface Case {
  rule: string;
  entry: DocumentedOperation;
  request: Request;
  /** A path parameter: a value naming nothing may be refused as not found or forbidden rather than 400. */
  inPath?: boolean;
}

/** Where in a body something can be varied: each object, each string, each key of a free-form object. */
interface Location {
  path: Path;
  schema: Schema;
  value: Json;
  kind: "object" | "string" | "key";
}
function* locations(schema: Schema, value: Json, path: Path = []): Generator<Location> {
  const node = resolve(schema);
  if (node.anyOf) {
    const branch = node.anyOf.find((option) => documentAccepts(option, value));
    if (branch) yield* locations(branch, value, path);
    return;
  }
  if (typeof value === "string" && node.type === "string") yield { path, schema: node, value, kind: "string" };
  if (Array.isArray(value) && node.items)
    for (const [index, item] of value.entries()) yield* locations(node.items, item, [...path, index]);
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    yield { path, schema: node, value, kind: "object" };
    for (const [name, item] of Object.entries(value)) {
      const property = node.properties?.[name];
      if (property) yield* locations(property, item, [...path, name]);
      else if (node.propertyNames)
        yield { path: [...path, name], schema: resolve(node.propertyNames), value: name, kind: "key" };
    }
  }
}

function replaced(
  body: Json,
  path: Path,
  change: (parent: Record<string, Json> | Json[], last: string | number) => void,
): Json {
  const copy = structuredClone(body);
  let parent = copy as Record<string, Json> | Json[];
  for (const step of path.slice(0, -1))
    parent = (parent as Record<string | number, Json>)[step] as Record<string, Json> | Json[];
  change(parent, path.at(-1) as string | number);
  return copy;
}
const setAt = (body: Json, path: Path, value: Json) =>
  path.length === 0
    ? value
    : replaced(body, path, (parent, last) => {
        (parent as Record<string | number, Json>)[last] = value;
      });
const renameKeyAt = (body: Json, path: Path, name: string) =>
  replaced(body, path, (parent, last) => {
    const object = parent as Record<string, Json>;
    object[name] = object[last] as Json;
    delete object[last];
  });

/** Text variants for the text rule, blank names and closed lists, from a valid value. */
function textVariants(value: string, schema: Schema, allowSurrogates: boolean): string[] {
  const variants = [`${value}\u0000`, `\u0000${value}`, "\u00a0", " \t ", ` ${value} `, `\u00a0${value}`];
  if (allowSurrogates) variants.push(`${value}\ud800`, `\udc00${value}`, `${value}\ud83d\ude00`);
  // The closed lists: every value they hold, and one they do not ("fhaa" beside "fha").
  if (schema.enum) variants.push(...schema.enum.map(String), `${value}a`);
  return variants;
}

const bodyOperations = () => operations.filter((entry) => entry.operation.requestBody);

const RULES: Record<string, () => Case[]> = {
  "unknown properties (additionalProperties)": () =>
    bodyOperations().flatMap((entry) => {
      const request = exampleRequest(entry);
      return [...locations(entry.operation.requestBody!.content["application/json"].schema, request.body as Json)]
        .filter((location) => location.kind === "object")
        .map((location) => ({
          rule: `${location.path.join(".") || "body"} + zz_unknown`,
          entry,
          request: {
            ...request,
            body: setAt(request.body as Json, location.path, {
              ...(location.value as Record<string, Json>),
              zz_unknown: true,
            }),
          },
        }));
    }),

  "an empty body (minProperties)": () =>
    bodyOperations().flatMap((entry) => {
      const schema = resolve(entry.operation.requestBody!.content["application/json"].schema);
      const request = exampleRequest(entry);
      const example = request.body as Record<string, Json>;
      const alone = Object.entries(schema.properties ?? {}).flatMap(([name, property]): Array<[string, Json]> => {
        if (example[name] !== undefined) return [[name, example[name] as Json]];
        const values = resolve(property).enum;
        return values?.[0] === undefined ? [] : [[name, values[0]]];
      });
      return [
        { rule: "{}", entry, request: { ...request, body: {} } },
        ...alone.map(([name, value]) => ({
          rule: `only ${name}`,
          entry,
          request: { ...request, body: { [name]: value } },
        })),
      ];
    }),

  "Idempotency-Key (pattern)": () => {
    const uuid = () => randomUUID();
    const candidates = [
      () => uuid(),
      () => `"${uuid()}"`,
      () => `op:${uuid()}:~!#$%&'*+.^_\`|`,
      () => "k".repeat(254) + String.fromCharCode(97 + Math.floor(Math.random() * 26)),
      () => `"${"q".repeat(250)}${uuid().slice(0, 5)}"`,
      () => '"',
      () => '""',
      () => "k".repeat(256),
      () => `"${"k".repeat(256)}"`,
      () => `two ${uuid()}`,
      () => `${uuid()}\u00a0`,
      () => `é-${uuid()}`,
    ];
    return operations
      .filter((entry) => (entry.operation.parameters ?? []).some((p) => p.name === "Idempotency-Key"))
      .flatMap((entry) => candidates.map((candidate) => ({ entry, value: candidate() })))
      .map(({ entry, value }) => ({
        rule: `Idempotency-Key: ${JSON.stringify(value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : value)}`,
        entry,
        request: { ...exampleRequest(entry), headers: { "Idempotency-Key": value } },
      }));
  },

  "request text, blank names and closed lists (pattern, enum)": () =>
    operations.flatMap((entry) => {
      const request = exampleRequest(entry);
      const fromBody = entry.operation.requestBody
        ? [...locations(entry.operation.requestBody.content["application/json"].schema, request.body as Json)].flatMap(
            (location): Case[] => {
              if (location.kind === "object") return [];
              return textVariants(location.value as string, location.schema, true).map((variant) => ({
                rule: `${location.kind === "key" ? "key " : ""}${location.path.join(".")} = ${JSON.stringify(variant)}`,
                entry,
                request: {
                  ...request,
                  body:
                    location.kind === "key"
                      ? renameKeyAt(request.body as Json, location.path, variant)
                      : setAt(request.body as Json, location.path, variant),
                },
              }));
            },
          )
        : [];
      const fromParameters = (entry.operation.parameters ?? [])
        .filter(
          (p) =>
            p.in !== "header" &&
            resolve(p.schema).type === "string" &&
            (p.in === "path" || request.query[p.name] !== undefined),
        )
        .flatMap((p) => {
          const value = p.in === "path" ? (request.path[p.name] as string) : (request.query[p.name] as string);
          // A lone surrogate cannot be percent-encoded: no URL carries one.
          return textVariants(value, resolve(p.schema), false).map((variant) => ({
            rule: `${p.in} ${p.name} = ${JSON.stringify(variant)}`,
            entry,
            inPath: p.in === "path",
            request:
              p.in === "path"
                ? { ...request, path: { ...request.path, [p.name]: variant } }
                : { ...request, query: { ...request.query, [p.name]: variant } },
          }));
        });
      return [...fromBody, ...fromParameters];
    }),
};

describe("the OpenAPI document states what the server enforces", () => {
  it("the links lead to operations that answer: from each response, with its values", async () => {
    // Lifecycle routes in the order a partner meets them: the leaver's deletion, then their return.
    const order = (entry: DocumentedOperation) => (entry.template.endsWith("/reprovision") ? 1 : 0);
    const linked = operations
      .filter((entry) => Object.values(entry.operation.responses).some((response) => response.links))
      .sort((a, b) => order(a) - order(b));
    expect(linked.length).toBeGreaterThanOrEqual(12);
    const followed = new Set<string>();
    for (const entry of linked) {
      const request = prepared(entry, exampleRequest(entry));
      expect(documentAcceptsRequest(entry, request), `${entry.key}: the example request`).toBe(true);
      const response = await send(entry, request);
      expect(response.status, `${entry.key}: ${response.text}`).toBeLessThan(300);
      const links = entry.operation.responses[String(response.status)]?.links ?? {};
      expect(Object.keys(links).length, `${entry.key} ${response.status} has links`).toBeGreaterThan(0);
      for (const [name, link] of Object.entries(links)) {
        const target = byOperationId.get(link.operationId)!;
        const values = Object.fromEntries(
          Object.entries(link.parameters).map(([parameter, expression]) => [
            parameter,
            evaluate(expression, request, response.body),
          ]),
        );
        const next = prepared(target, { ...exampleRequest(target), path: values });
        const answered = await send(target, next);
        expect(
          answered.status,
          `${entry.key} → ${name} (${target.key} with ${JSON.stringify(values)}): ${answered.text}`,
        ).toBeLessThan(300);
        followed.add(`${entry.key} → ${name}`);
        // The deletion runs in the background: wait for it (its poll link) before the leaver returns.
        if (name === "GetOperation" && entry.template.endsWith("/deletions"))
          await waitFor(target, next, (body) => body.operation.status === "completed");
      }
    }
    expect(followed.size).toBeGreaterThanOrEqual(20);
  });

  it.each(Object.keys(RULES))(
    "%s: the server refuses exactly the requests the document calls invalid",
    async (rule) => {
      const cases = RULES[rule]!();
      expect(cases.length).toBeGreaterThan(0);
      const disagreements: string[] = [];
      let valid = 0;
      for (const c of cases) {
        const request = prepared(c.entry, c.request);
        const accepted = documentAcceptsRequest(c.entry, request);
        if (accepted) valid += 1;
        const response = await send(c.entry, request);
        const refusedAsInvalid =
          response.status === 400 || (c.inPath === true && (response.status === 403 || response.status === 404));
        const refusedForItsState =
          response.status === 400 &&
          STATE_REFUSALS.some((refusal) => refusal.test(response.body?.error?.message ?? ""));
        const agrees =
          response.status < 500 && (accepted ? response.status !== 400 || refusedForItsState : refusedAsInvalid);
        if (!agrees) {
          disagreements.push(
            `${c.entry.key} [${c.rule}]: the document calls it ${accepted ? "valid" : "invalid"}, the server answered ${response.status} ${response.text.slice(0, 200)}\n    request: ${JSON.stringify(request)}`,
          );
        }
      }
      // Both sides of every rule are exercised: requests the document accepts and requests it refuses.
      expect(valid, "requests the document calls valid").toBeGreaterThan(0);
      expect(cases.length - valid, "requests the document calls invalid").toBeGreaterThan(0);
      expect(
        disagreements,
        `${disagreements.length} of ${cases.length} requests:\n${disagreements.join("\n")}`,
      ).toEqual([]);
    },
  );
});

/**
 * 400s that depend on the state of what the request names, not on the request: no schema can
 * state them, so the operation's description does (profile changes: "nothing to change").
 */
const STATE_REFUSALS = [/^email, name: nothing to change \(both equal the current profile\)$/];

/** `$request.path.<name>` or `$response.body#/<pointer>` (the two forms the document's links use). */
function evaluate(expression: string, request: Request, body: UntypedJson): string {
  const fromPath = /^\$request\.path\.(\w+)$/.exec(expression);
  if (fromPath) return request.path[fromPath[1] as string] as string;
  const pointer = /^\$response\.body#(\/.*)$/.exec(expression);
  if (!pointer) throw new Error(`unsupported runtime expression ${expression}`);
  return (pointer[1] as string)
    .split("/")
    .slice(1)
    .reduce((value, token) => value?.[token.replace(/~1/g, "/").replace(/~0/g, "~")], body) as string;
}

async function waitFor(
  entry: DocumentedOperation,
  request: Request,
  done: (body: UntypedJson) => boolean,
): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await send(entry, request);
    if (done(response.body)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${entry.key} never reached the awaited state`);
}
