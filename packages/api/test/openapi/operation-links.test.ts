import { describe, expect, it } from "vitest";

import { buildOpenApiDocument } from "../../src/index";
import { OPERATION_EXAMPLES } from "../../src/openapi/operation-examples";

/**
 * The links of the OpenAPI document lead somewhere: each names an operation the document has,
 * fills every path parameter of it, and, evaluated on the operation's own examples (its
 * parameters as the request, each success example as the response), gives values the target's
 * parameters accept.
 */
interface Link {
  operationId: string;
  parameters: Record<string, string>;
  description?: string;
}
interface Operation {
  operationId: string;
  parameters?: Array<{
    name: string;
    in: string;
    required?: boolean;
    schema: { pattern?: string; minLength?: number; maxLength?: number };
  }>;
  responses: Record<string, { links?: Record<string, Link> }>;
}

const document = buildOpenApiDocument("https://api.example-lender.test");
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${path}`,
    operation,
  })),
);
const byId = new Map(operations.map(({ key, operation }) => [operation.operationId, { key, operation }]));

/** A runtime expression of the two kinds the document uses, on a request's path parameters and a response body. */
function evaluate(expression: string, request: Record<string, unknown>, body: unknown): unknown {
  const path = /^\$request\.path\.(\w+)$/.exec(expression);
  if (path) return request[path[1]!];
  const pointer = /^\$response\.body#(\/.*)$/.exec(expression);
  if (!pointer) throw new Error(`unsupported runtime expression ${expression}`);
  return pointer[1]!
    .split("/")
    .slice(1)
    .reduce<unknown>(
      (value, token) => (value as Record<string, unknown> | undefined)?.[token.replace(/~1/g, "/").replace(/~0/g, "~")],
      body,
    );
}

const linked = operations.flatMap(({ key, operation }) =>
  Object.entries(operation.responses).flatMap(([status, response]) =>
    Object.entries(response.links ?? {}).map(([name, link]) => ({ key, status, name, link })),
  ),
);

describe("links between operations", () => {
  it("follow the flows: a created conversation, user and team writes, lifecycle operations, imports", () => {
    const from = (key: string) =>
      [
        ...new Set(linked.filter((entry) => entry.key === key).map((entry) => byId.get(entry.link.operationId)?.key)),
      ].sort();
    expect(from("POST /v1/conversations")).toEqual([
      "GET /v1/conversations/{conversationId}",
      "GET /v1/conversations/{conversationId}/messages",
      "POST /v1/conversations/{conversationId}/messages",
    ]);
    expect(from("PUT /v1/integrations/{integration}/users/{external_user_id}")).toEqual([
      "GET /v1/integrations/{integration}/users/{external_user_id}",
    ]);
    for (const lifecycle of ["profile-changes", "deletions", "reprovision"]) {
      expect(from(`POST /v1/integrations/{integration}/users/{external_user_id}/${lifecycle}`)).toContain(
        "GET /v1/integrations/{integration}/user-operations/{operation_id}",
      );
    }
    expect(from("POST /v1/integrations/{integration}/user-imports")).toEqual([
      "GET /v1/integrations/{integration}/user-imports/{job_id}",
    ]);
    expect(from("GET /v1/conversations")).toEqual([
      "GET /v1/conversations/{conversationId}",
      "GET /v1/conversations/{conversationId}/messages",
    ]);
    expect(from("POST /v1/embed-sessions")).toEqual([]);
    // Every success status of an operation with links carries them (PUT user's 202 as much as its 201).
    for (const { key, operation } of operations) {
      const withLinks = Object.entries(operation.responses).filter(
        ([status, response]) => status.startsWith("2") && response.links,
      );
      if (withLinks.length)
        expect(withLinks.length, key).toBe(
          Object.keys(operation.responses).filter((status) => status.startsWith("2")).length,
        );
    }
  });

  it.each(linked.map((entry) => [`${entry.key} ${entry.status} → ${entry.name}`, entry] as const))(
    "%s resolves on the examples",
    (_, { key, status, link }) => {
      const target = byId.get(link.operationId);
      if (!target) throw new Error(`${link.operationId} is not an operation of the document`);
      expect(link.description).toBeTruthy();
      const pathParameters = (target.operation.parameters ?? []).filter((parameter) => parameter.in === "path");
      expect(Object.keys(link.parameters).sort()).toEqual(pathParameters.map((parameter) => parameter.name).sort());
      const example = OPERATION_EXAMPLES[key]!;
      const body = example.responses[Number(status) as keyof typeof example.responses];
      for (const parameter of pathParameters) {
        const value = evaluate(link.parameters[parameter.name]!, example.parameters ?? {}, body);
        expect(typeof value, `${parameter.name} from ${link.parameters[parameter.name]}`).toBe("string");
        const text = value as string;
        if (parameter.schema.pattern) expect(text).toMatch(new RegExp(parameter.schema.pattern, "u"));
        expect(text.length).toBeGreaterThanOrEqual(parameter.schema.minLength ?? 1);
        expect(text.length).toBeLessThanOrEqual(parameter.schema.maxLength ?? Infinity);
      }
    },
  );
});
