import { describe, expect, it } from "vitest";

import { frameTypes } from "../../src/bench/sse-frames";

describe("the bench's reading of an event stream", () => {
  it("lists the frames' types in order, an error frame with its code, and skips comments and other data", () => {
    const body = [
      ": keep-alive",
      'data: {"type":"content","delta":"FHA"}',
      "data: not json",
      'event: x\ndata: {"type":"error","status":502,"error":{"code":"upstream_error","message":"m","request_id":"r"}}',
      'data: {"type":"error"}',
      'data: {"type":"public_api_complete"}',
    ].join("\n\n");
    expect(frameTypes(body)).toEqual([
      "content",
      "error upstream_error",
      "error without a code",
      "public_api_complete",
    ]);
  });
});
