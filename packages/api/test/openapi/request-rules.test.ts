import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { IDEMPOTENCY_KEY_PATTERN, parseIdempotencyKey } from "@mga/core/idempotency";
import { AGENCY_SOURCE_TYPES } from "@mga/core/sources";

import { buildOpenApiDocument } from "../../src/index";
import { NAME_PATTERN, REQUEST_TEXT_PATTERN, textFault } from "../../src/schemas/request-text";

/**
 * The rules the server applies to a request, as the OpenAPI document states them: each pattern
 * is the server's own check in another form, and the document carries it wherever the rule
 * applies. apps/server/test/openapi/document-rules.test.ts compares the document with the
 * running server.
 */
interface Schema {
  $ref?: string;
  type?: string | string[];
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  propertyNames?: Schema;
  additionalProperties?: Schema | boolean;
  minProperties?: number;
  required?: string[];
  anyOf?: Schema[];
}
interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}

const document = buildOpenApiDocument("https://api.example-lender.test");
const components = document.components?.schemas as Record<string, Schema>;
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${path}`,
    operation,
  })),
);
const resolve = (schema: Schema): Schema =>
  schema.$ref ? resolve(components[schema.$ref.replace("#/components/schemas/", "")]!) : schema;

/** Every subschema of a request (through $ref), with where it is. */
function* requestSchemas(): Generator<[string, Schema]> {
  function* walk(schema: Schema | boolean | undefined, where: string): Generator<[string, Schema]> {
    if (!schema || typeof schema !== "object") return;
    const node = resolve(schema);
    yield [where, node];
    for (const [name, property] of Object.entries(node.properties ?? {})) yield* walk(property, `${where}.${name}`);
    yield* walk(node.items, `${where}[]`);
    yield* walk(node.propertyNames, `${where} (key)`);
    yield* walk(node.additionalProperties, `${where}.*`);
    for (const [index, option] of (node.anyOf ?? []).entries()) yield* walk(option, `${where}|${index}`);
  }
  for (const { key, operation } of operations) {
    for (const parameter of operation.parameters ?? [])
      if (parameter.in !== "header") yield* walk(parameter.schema, `${key} ${parameter.in} ${parameter.name}`);
    yield* walk(operation.requestBody?.content["application/json"]?.schema, `${key} body`);
  }
}

const isString = (schema: Schema) => (Array.isArray(schema.type) ? schema.type : [schema.type]).includes("string");

/** Text as a client might send it: any UTF-16 code units, lone surrogates and NUL included. */
const anyText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "\u0000",
        "\ud800",
        "\udfff",
        "\ud83d\ude00",
        " ",
        "\t",
        "\n",
        "\u00a0",
        "\u2028",
        "\ufeff",
        "\u3000",
        "a",
        '"',
      ),
      fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
    ),
    { maxLength: 12 },
  )
  .map((units) => units.join(""));

describe("the text rule", () => {
  it("REQUEST_TEXT_PATTERN accepts exactly what the input reader accepts, with or without the u flag", () => {
    const plain = new RegExp(REQUEST_TEXT_PATTERN);
    const unicode = new RegExp(REQUEST_TEXT_PATTERN, "u");
    fc.assert(
      fc.property(anyText, (text) => {
        const accepted = textFault(text) === undefined;
        expect(accepted).toBe(!text.includes("\u0000") && text.isWellFormed());
        expect(plain.test(text)).toBe(accepted);
        expect(unicode.test(text)).toBe(accepted);
      }),
      { numRuns: 2000 },
    );
  });

  it("NAME_PATTERN accepts exactly the text that is left non-empty by trimming", () => {
    const plain = new RegExp(NAME_PATTERN);
    const unicode = new RegExp(NAME_PATTERN, "u");
    fc.assert(
      fc.property(anyText, (text) => {
        const accepted = textFault(text) === undefined && text.trim() !== "";
        expect(plain.test(text)).toBe(accepted);
        expect(unicode.test(text)).toBe(accepted);
      }),
      { numRuns: 2000 },
    );
    for (const blank of ["", " ", "\u00a0", "\t\n", "\ufeff\u3000"]) expect(plain.test(blank)).toBe(false);
  });

  it("is stated on every string a request can carry: a pattern that refuses NUL, or a closed list", () => {
    const strings = [...requestSchemas()].filter(([, schema]) => isString(schema));
    expect(strings.length).toBeGreaterThan(40);
    for (const [where, schema] of strings) {
      if (schema.enum !== undefined || schema.const !== undefined) continue;
      expect(schema.pattern, where).toBeDefined();
      const pattern = new RegExp(schema.pattern!, "u");
      for (const text of ["\u0000", "a\u0000", "\u0000a", "a\u0000a"])
        expect(pattern.test(text), `${where}: ${JSON.stringify(text)}`).toBe(false);
    }
  });
});

describe("Idempotency-Key", () => {
  /** The rule as it read before it became a pattern: one pair of quotes around the key is the quoted form. */
  const oracle = (value: string) => {
    const key = /^".*"$/.test(value) && value.length >= 2 ? value.slice(1, -1) : value;
    return /^[\x21-\x7e]{1,255}$/.test(key);
  };

  it("the pattern is the rule the parser applies, on bare and quoted keys of every length", () => {
    const units = fc.oneof(
      fc.constantFrom('"', " ", "\u00a0", "\u007f", "é", "a"),
      fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    );
    const values = fc.oneof(
      fc.array(units, { maxLength: 8 }).map((parts) => parts.join("")),
      fc.integer({ min: 250, max: 260 }).map((length) => "k".repeat(length)),
      fc.integer({ min: 250, max: 260 }).map((length) => `"${"k".repeat(length - 2)}"`),
    );
    fc.assert(
      fc.property(values, (value) => {
        expect(IDEMPOTENCY_KEY_PATTERN.test(value)).toBe(oracle(value));
        // The parser reads the field value: what HTTP's optional whitespace surrounds.
        const field = value.replace(/^[ \t]+|[ \t]+$/g, "");
        if (oracle(field)) expect(parseIdempotencyKey(value)).toBe(/^".+"$/.test(field) ? field.slice(1, -1) : field);
        else expect(() => parseIdempotencyKey(value)).toThrow(/Idempotency-Key/);
      }),
      { numRuns: 2000 },
    );
    expect(IDEMPOTENCY_KEY_PATTERN.test('""')).toBe(false);
    expect(IDEMPOTENCY_KEY_PATTERN.test('"')).toBe(true);
  });

  it("every operation that takes the header states that pattern", () => {
    const headers = operations.flatMap(({ key, operation }) =>
      (operation.parameters ?? []).filter((p) => p.name === "Idempotency-Key").map((p) => [key, p] as const),
    );
    expect(headers.map(([key]) => key).sort()).toEqual(
      [
        "POST /v1/conversations",
        "POST /v1/conversations/{conversationId}/messages",
        "POST /v1/embed-sessions",
        "POST /v1/integrations/{integration}/user-imports",
        "POST /v1/integrations/{integration}/users/{external_user_id}/deletions",
        "POST /v1/integrations/{integration}/users/{external_user_id}/profile-changes",
        "POST /v1/integrations/{integration}/users/{external_user_id}/reprovision",
        "POST /v1/messages",
      ].sort(),
    );
    for (const [key, parameter] of headers) expect(parameter.schema.pattern, key).toBe(IDEMPOTENCY_KEY_PATTERN.source);
  });
});

describe("request bodies", () => {
  it("every object of a request refuses unknown properties, except the free-form metadata", () => {
    const objects = [...requestSchemas()].filter(([, schema]) => schema.type === "object");
    expect(objects.length).toBeGreaterThan(15);
    for (const [where, schema] of objects) {
      if (/\.metadata$/.test(where)) expect(schema.additionalProperties, where).toEqual({});
      else expect(schema.additionalProperties, where).toBe(false);
    }
  });

  it("a body whose fields are all optional but not all absent says minProperties: 1", () => {
    const nonEmpty = operations
      .filter(({ operation }) => operation.requestBody?.content["application/json"]?.schema.minProperties === 1)
      .map(({ key }) => key);
    expect(nonEmpty.sort()).toEqual([
      "PATCH /v1/integrations/{integration}/teams/{external_team_id}",
      "POST /v1/integrations/{integration}/users/{external_user_id}/profile-changes",
    ]);
  });
});

describe("agency source types", () => {
  it("are one enum, core's closed list, wherever a request or a response carries them", () => {
    expect(components.AgencySourceType?.enum).toEqual([...AGENCY_SOURCE_TYPES]);
    const ref = { $ref: "#/components/schemas/AgencySourceType" };
    expect(components.SearchOptions?.properties?.agency_source_types?.items).toEqual(ref);
    for (const field of ["agency_source_types", "enabled_sources", "base_sources"])
      expect(components.ListSourcesResponse?.properties?.[field]?.items, field).toEqual(ref);
    for (const field of ["enabledSources", "baseSources"])
      expect(components.TenantConfiguration?.properties?.[field]?.items, field).toEqual(ref);
  });
});
