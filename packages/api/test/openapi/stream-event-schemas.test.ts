import { describe, expect, it } from "vitest";

import { buildOpenApiDocument, streamEventSchema } from "../../src/index";

const FRAME_TYPES = [
  "public_api_conversation",
  "content",
  "content_postprocessed",
  "complete",
  "public_api_complete",
  "error",
];

describe("the event stream in the OpenAPI document", () => {
  const document = buildOpenApiDocument("http://127.0.0.1:3000");
  const schemas = document.components?.schemas as Record<
    string,
    {
      oneOf?: Array<{ $ref: string }>;
      discriminator?: { propertyName: string; mapping: Record<string, string> };
      properties?: Record<string, { const?: string }>;
      required?: string[];
    }
  >;

  it("describes each frame as a schema: a oneOf with a discriminator on type", () => {
    const streamEvent = schemas.StreamEvent!;
    expect(streamEvent.discriminator?.propertyName).toBe("type");
    expect(Object.keys(streamEvent.discriminator?.mapping ?? {}).sort()).toEqual([...FRAME_TYPES].sort());
    expect(streamEvent.oneOf).toHaveLength(FRAME_TYPES.length);
    for (const [type, ref] of Object.entries(streamEvent.discriminator!.mapping)) {
      const frame = schemas[ref.replace("#/components/schemas/", "")]!;
      expect(frame.properties?.type?.const).toBe(type);
      expect(frame.required).toContain("type");
    }
  });

  it("the GET of a conversation's messages is JSON only", () => {
    const get = (
      document.paths?.["/v1/conversations/{conversationId}/messages"] as {
        get: { responses: Record<string, { content: Record<string, unknown> }> };
      }
    ).get;
    expect(Object.keys(get.responses["200"]!.content)).toEqual(["application/json"]);
  });

  it("the terminal error frame carries the status and the error envelope's body", () => {
    const frame = schemas.StreamEventError!;
    expect(frame.required?.sort()).toEqual(["error", "status", "type"]);
  });

  it("both message routes answer text/event-stream with the frame schema", () => {
    for (const path of ["/v1/messages", "/v1/conversations/{conversationId}/messages"]) {
      const post = (
        document.paths?.[path] as {
          post: { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
        }
      ).post;
      expect(post.responses["200"]!.content["text/event-stream"]!.schema).toEqual({
        $ref: "#/components/schemas/StreamEvent",
      });
    }
  });

  it("the zod schema the server writes frames with refuses a frame of another shape", () => {
    expect(streamEventSchema.safeParse({ type: "content", content: "x" }).success).toBe(true);
    expect(
      streamEventSchema.safeParse({
        type: "error",
        status: 200,
        error: { code: "upstream_error", message: "m", request_id: "r" },
      }).success,
    ).toBe(false);
    expect(streamEventSchema.safeParse({ type: "content_delta", content: "x" }).success).toBe(false);
  });
});
