import { describe, expect, it } from "vitest";

import { buildOpenApiDocument } from "../../src/index";

/**
 * The routes of spec section 4 and the statuses it names for each, written from the spec, and
 * how the OpenAPI document differs from it, each difference with its reason. The document
 * must list exactly the spec's success statuses, and exactly the spec's error statuses plus
 * `added` minus `omitted`. Where the spec does not show a route's statuses, `success` and
 * `added` are this service's decision (docs/decisions.md, "OpenAPI document").
 */
type Status = 200 | 201 | 202 | 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 502;
interface SpecRoute {
  success: Status[];
  /** False where the spec shows no success status and `success` is ours. */
  successShown?: false;
  errors: Status[] | "not shown";
  added?: Partial<Record<Status, string>>;
  omitted?: Partial<Record<Status, string>>;
}

const INPUT = {
  400: "every input is strict: unknown or malformed parameters are refused (spec 7: invalid parameters, unknown fields)",
};
const BODY = { 413: "a body over 1 MiB", 415: "a body not sent as application/json" };
const INTERNAL = { 500: "an unexpected failure (spec 7), possible on any route" };
const KEY = { 401: "spec 5.1: every endpoint", 429: "spec 8: limits apply per key", ...INTERNAL };
const SCOPE = { 403: "spec 5.2 and 5.4: the scope, the integration" };
const NO_UPSTREAM = {
  502: "this route calls no upstream service: the site-account work runs in the background or leaves the user pending",
};
const NOT_SHOWN_READ = { ...INPUT, ...KEY, ...SCOPE, 404: "looked up by id" };
const NOT_SHOWN_WRITE = {
  ...NOT_SHOWN_READ,
  ...BODY,
  409: "a state that forbids the change, an Idempotency-Key reused, or a write racing another",
};

const SPEC_ROUTES: Record<string, SpecRoute> = {
  // 4.1
  "GET /v1/me": { success: [200], errors: [401, 429, 500], added: INPUT },
  // 4.2 ("500 in reference variant")
  "GET /v1/sources": { success: [200], errors: [401, 403, 429, 500], added: INPUT },
  // 4.3
  "POST /v1/conversations": { success: [201], errors: [400, 401, 403, 409, 429], added: { ...BODY, ...INTERNAL } },
  // 4.4, 4.5
  "POST /v1/messages": { success: [200], errors: [400, 401, 403, 404, 409, 429, 502], added: { ...BODY, ...INTERNAL } },
  "POST /v1/conversations/{conversationId}/messages": {
    success: [200],
    errors: [400, 401, 403, 404, 409, 429, 502],
    added: { ...BODY, ...INTERNAL },
  },
  // 4.6, 4.7
  "GET /v1/conversations/{conversationId}": {
    success: [200],
    errors: [401, 403, 404, 429],
    added: { ...INPUT, ...INTERNAL },
  },
  "GET /v1/conversations/{conversationId}/messages": {
    success: [200],
    errors: [401, 403, 404, 429],
    added: { ...INPUT, ...INTERNAL },
  },
  // 4.8
  "POST /v1/embed-sessions": {
    success: [201],
    errors: [400, 401, 403, 409, 429, 500, 502],
    added: BODY,
    omitted: { 502: "a launch calls no upstream service" },
  },
  // 4.9
  "GET /v1/integrations/{integration}/teams": {
    success: [200],
    errors: [400, 401, 403, 429, 500, 502],
    omitted: NO_UPSTREAM,
  },
  "PUT /v1/integrations/{integration}/teams/{external_team_id}": {
    success: [200, 201],
    errors: [400, 401, 403, 409, 429, 500, 502],
    added: BODY,
    omitted: NO_UPSTREAM,
  },
  "GET /v1/integrations/{integration}/teams/{external_team_id}": {
    success: [200],
    errors: [400, 401, 403, 404, 429, 500, 502],
    omitted: NO_UPSTREAM,
  },
  "PATCH /v1/integrations/{integration}/teams/{external_team_id}": {
    success: [200],
    errors: [400, 401, 403, 404, 409, 429, 500, 502],
    added: BODY,
    omitted: NO_UPSTREAM,
  },
  // 4.10
  "GET /v1/integrations/{integration}/users": {
    success: [200],
    errors: [400, 401, 403, 429, 500, 502],
    omitted: NO_UPSTREAM,
  },
  "PUT /v1/integrations/{integration}/users/{external_user_id}": {
    success: [200, 201, 202],
    errors: [409],
    added: { ...INPUT, ...KEY, ...SCOPE, ...BODY, 404: "team_not_found: the team_external_id sent does not exist" },
  },
  "GET /v1/integrations/{integration}/users/{external_user_id}": {
    success: [200],
    successShown: false,
    errors: "not shown",
    added: NOT_SHOWN_READ,
  },
  "PATCH /v1/integrations/{integration}/users/{external_user_id}": {
    success: [200],
    successShown: false,
    errors: "not shown",
    added: NOT_SHOWN_WRITE,
  },
  "POST /v1/integrations/{integration}/users/{external_user_id}/profile-changes": {
    success: [202],
    successShown: false,
    errors: "not shown",
    added: NOT_SHOWN_WRITE,
  },
  "POST /v1/integrations/{integration}/users/{external_user_id}/deletions": {
    success: [202],
    errors: "not shown",
    added: NOT_SHOWN_WRITE,
  },
  "POST /v1/integrations/{integration}/users/{external_user_id}/reprovision": {
    success: [202],
    successShown: false,
    errors: "not shown",
    added: NOT_SHOWN_WRITE,
  },
  "GET /v1/integrations/{integration}/user-operations/{operation_id}": {
    success: [200],
    successShown: false,
    errors: "not shown",
    added: NOT_SHOWN_READ,
  },
  "POST /v1/integrations/{integration}/user-imports": {
    success: [202],
    successShown: false,
    errors: "not shown",
    added: { ...INPUT, ...KEY, ...SCOPE, ...BODY, 409: "an Idempotency-Key reused with another body" },
  },
  "GET /v1/integrations/{integration}/user-imports/{job_id}": {
    success: [200],
    successShown: false,
    errors: "not shown",
    added: NOT_SHOWN_READ,
  },
};

/** Routes this service adds beyond spec section 4, with their statuses and why (none changes a spec route). */
const ADDED_ROUTES: Record<string, { success: Status[]; errors: Status[]; why: string }> = {
  "GET /v1/conversations": {
    success: [200],
    errors: [400, 401, 403, 429, 500],
    why: "issue 23: a partner shows a user's recent chats, which needs the key's conversations of one end user; nothing is looked up by id, so no 404",
  },
  "POST /v1/conversations/{conversationId}/cancel": {
    success: [200, 202],
    errors: [400, 401, 403, 404, 413, 415, 429, 500],
    why: "issue 23: a streamed answer goes on when its client disconnects, so stopping one is explicit",
  },
  "GET /v1/conversations/{conversationId}/stream": {
    success: [200],
    errors: [400, 401, 403, 404, 429, 500],
    why: "issue 23: an answer resumed after a dropped connection or a deploy (SSE Last-Event-ID)",
  },
  "GET /v1/events": {
    success: [200],
    errors: [400, 401, 403, 429, 500],
    why: "issue 25: a partner catches up on the events its webhooks deliver, after downtime; nothing is looked up by id, so no 404",
  },
  "GET /v1/usage": {
    success: [200],
    errors: [400, 401, 403, 429, 500],
    why: "issue 26: a partner reads its own organization's usage per day; nothing is looked up by id, so no 404",
  },
};

const SUCCESS = new Set<Status>([200, 201, 202]);
const document = buildOpenApiDocument("https://api.example-lender.test");
const documented = new Map<string, Status[]>();
for (const [path, item] of Object.entries(document.paths ?? {})) {
  for (const [method, operation] of Object.entries(item as Record<string, { responses: Record<string, unknown> }>)) {
    documented.set(
      `${method.toUpperCase()} ${path}`,
      Object.keys(operation.responses).map((status) => Number(status) as Status),
    );
  }
}
const sorted = (statuses: Iterable<Status>) => [...statuses].sort((a, b) => a - b);
const keysOf = (record: Partial<Record<Status, string>> | undefined) =>
  Object.keys(record ?? {}).map((status) => Number(status) as Status);

describe("the OpenAPI document against the spec's routes and statuses", () => {
  it("documents exactly the spec's routes, and the routes this service adds", () => {
    expect([...documented.keys()].sort()).toEqual([...Object.keys(SPEC_ROUTES), ...Object.keys(ADDED_ROUTES)].sort());
  });

  it.each(Object.entries(ADDED_ROUTES))("%s: exactly its own statuses", (route, added) => {
    expect(sorted(documented.get(route) ?? [])).toEqual(sorted([...added.success, ...added.errors]));
  });

  it.each(Object.entries(SPEC_ROUTES))(
    "%s: the spec's success statuses, and its error statuses with the differences the table explains",
    (route, spec) => {
      const statuses = documented.get(route) ?? [];
      expect(sorted(statuses.filter((status) => SUCCESS.has(status))), "success statuses").toEqual(
        sorted(spec.success),
      );
      const expected = new Set<Status>([...(spec.errors === "not shown" ? [] : spec.errors), ...keysOf(spec.added)]);
      for (const status of keysOf(spec.omitted))
        expect(expected.delete(status), `omitted ${status} must be one the spec lists`).toBe(true);
      expect(sorted(statuses.filter((status) => !SUCCESS.has(status))), "error statuses").toEqual(sorted(expected));
    },
  );

  it("gives each success status its own description and the same response schema", () => {
    const put = (
      document.paths?.["/v1/integrations/{integration}/users/{external_user_id}"] as {
        put: { responses: Record<string, { description: string; content: Record<string, { schema: unknown }> }> };
      }
    ).put;
    const responses = ["200", "201", "202"].map((status) => put.responses[status]);
    expect(new Set(responses.map((response) => response?.description)).size).toBe(3);
    for (const response of responses)
      expect(response?.content["application/json"]?.schema).toEqual({
        $ref: "#/components/schemas/PartnerUserResponse",
      });
  });
});
