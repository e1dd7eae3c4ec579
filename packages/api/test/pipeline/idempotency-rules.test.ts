import { describe, expect, it } from "vitest";

import {
  IDEMPOTENCY_KEY_WITH_STREAM,
  idempotencyKeyOf,
  refuseIdempotencyKeyWithStream,
} from "../../src/idempotency/idempotency-rules";

/** Who may or must send Idempotency-Key (spec 8), one module for every route and transport. */
describe("Idempotency-Key rules", () => {
  it("a streaming request may not carry the header, whatever its value", () => {
    for (const value of ["abc", "", "two words"])
      expect(() => refuseIdempotencyKeyWithStream(value)).toThrow(IDEMPOTENCY_KEY_WITH_STREAM);
    expect(() => refuseIdempotencyKeyWithStream(undefined)).not.toThrow();
  });

  it("a JSON request's header is parsed first, then refused with stream, then demanded where required", () => {
    expect(idempotencyKeyOf(' "op-1" ', {})).toBe("op-1");
    expect(idempotencyKeyOf(undefined, {})).toBeUndefined();
    expect(() => idempotencyKeyOf("two words", { stream: true })).toThrow(/printable ASCII/);
    expect(() => idempotencyKeyOf("abc", { stream: true })).toThrow(IDEMPOTENCY_KEY_WITH_STREAM);
    expect(idempotencyKeyOf(undefined, { stream: true })).toBeUndefined();
    expect(() => idempotencyKeyOf(undefined, { required: true })).toThrow(/requires the header/);
    expect(idempotencyKeyOf("op-2", { required: true })).toBe("op-2");
  });
});
