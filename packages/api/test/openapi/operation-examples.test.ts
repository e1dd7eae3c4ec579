import { describe, expect, it } from "vitest";
import type { z } from "zod";

import { appRouter, buildOpenApiDocument, errorEnvelopeSchema, streamEventSchema } from "../../src/index";
import { ERROR_EXAMPLES, EXAMPLE_REQUEST_ID, OPERATION_EXAMPLES } from "../../src/openapi/operation-examples";
import type { ApiMeta } from "../../src/trpc";

/** The examples shown in the OpenAPI document are real requests and responses of their operation's own schemas. */
interface ProcedureDef {
  meta?: ApiMeta;
  inputs: z.ZodType[];
  output?: z.ZodType;
}
const procedures = new Map<string, ProcedureDef>();
for (const procedure of Object.values(appRouter._def.procedures) as unknown as Array<{ _def: ProcedureDef }>) {
  const openapi = procedure._def.meta?.openapi;
  if (openapi) procedures.set(`${openapi.method} ${openapi.path}`, procedure._def);
}

type Operation = {
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, { example?: unknown }> }>;
};
const document = buildOpenApiDocument("https://api.example-lender.test");
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Operation>).map(
    ([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as const,
  ),
);

describe("request and response examples", () => {
  it("exist for documented operations only", () => {
    expect(Object.keys(OPERATION_EXAMPLES).sort()).toEqual(operations.map(([key]) => key).sort());
  });

  it.each(operations)(
    "%s: every parameter, the body and every success response have an example its schemas accept",
    (key, operation) => {
      const procedure = procedures.get(key);
      const example = OPERATION_EXAMPLES[key];
      if (!procedure || !example) throw new Error(`${key}: no procedure or no example`);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === "path") expect(parameter.example, `${key}: example of ${parameter.name}`).toBeDefined();
      }
      const input = { ...example.parameters, ...example.body };
      for (const parser of procedure.inputs) {
        const parsed = parser.safeParse(input);
        expect(parsed.success, `${key} input: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
      if (operation.requestBody)
        expect(operation.requestBody.content["application/json"]?.example).toEqual(example.body);
      const successes = Object.entries(operation.responses).filter(([status]) => status.startsWith("2"));
      expect(successes.length).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        const stream = response.content?.["text/event-stream"];
        if (!response.content?.["application/json"] && stream) {
          // An event stream only (the resume): its example is one frame, and each frame of the stream
          // its description shows is a frame the schema accepts.
          expect(streamEventSchema.safeParse(stream.example).success, JSON.stringify(stream.example)).toBe(true);
          const frames = [...(response.description ?? "").matchAll(/^data: (.*)$/gm)].map((match) => match[1] ?? "");
          expect(frames.length).toBeGreaterThan(0);
          for (const frame of frames) expect(streamEventSchema.safeParse(JSON.parse(frame)).success, frame).toBe(true);
          continue;
        }
        const shown = response.content?.["application/json"]?.example;
        if (shown === undefined) throw new Error(`${key} ${status}: no example`);
        const parsed = procedure.output?.safeParse(shown);
        expect(parsed?.success, `${key} ${status}: ${JSON.stringify(parsed?.error?.issues)}`).toBe(true);
      }
    },
  );

  it("every error response has an example envelope with its own code", () => {
    const responses = (document.components?.responses ?? {}) as Record<
      string,
      { content: Record<string, { example: unknown }> }
    >;
    expect(Object.keys(responses).length).toBeGreaterThan(0);
    for (const [name, response] of Object.entries(responses)) {
      const example = response.content["application/json"]?.example;
      expect(errorEnvelopeSchema.parse(example).error).toEqual({
        ...ERROR_EXAMPLES[Number(name.replace("Error", ""))],
        request_id: EXAMPLE_REQUEST_ID,
      });
    }
  });
});
