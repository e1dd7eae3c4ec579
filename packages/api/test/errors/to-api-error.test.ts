import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { AppError } from "@mga/core/errors";

import { HTTP_STATUS_OF, toApiError } from "../../src/index";

describe("toApiError: the one mapping from failures to HTTP", () => {
  it("keeps a domain error's code and message, with its status and headers", () => {
    const error = new AppError("rate_limited", "slow down", { headers: { "Retry-After": "3" } });
    expect(toApiError(error)).toEqual({
      status: 429,
      code: "rate_limited",
      message: "slow down",
      headers: { "Retry-After": "3" },
    });
    expect(
      toApiError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: new AppError("forbidden", "no") })),
    ).toMatchObject({ status: 403, code: "forbidden" });
  });

  it("gives every spec code a status", () => {
    expect(HTTP_STATUS_OF).toMatchObject({
      invalid_request: 400,
      unauthorized: 401,
      forbidden: 403,
      not_found: 404,
      idempotency_conflict: 409,
      rate_limited: 429,
      internal_error: 500,
      upstream_error: 502,
    });
  });

  it("names the fields of a validation failure", () => {
    const result = z
      .strictObject({ message: z.string().min(1), user: z.strictObject({ id: z.string() }) })
      .safeParse({ message: "", user: { id: 1 }, extra: true });
    const mapped = toApiError(new TRPCError({ code: "BAD_REQUEST", cause: result.error }));
    expect(mapped.status).toBe(400);
    expect(mapped.code).toBe("invalid_request");
    expect(mapped.message).toContain("message:");
    expect(mapped.message).toContain("user.id:");
    expect(mapped.message).toContain("unknown field: extra");
  });

  it("reports a result that fails its output schema as our fault (500), not as the caller's input", () => {
    const drift = z.strictObject({ id: z.string() }).safeParse({ id: 1 });
    const mapped = toApiError(
      new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Output validation failed", cause: drift.error }),
    );
    expect(mapped).toEqual({ status: 500, code: "internal_error", message: "internal error", headers: {} });
  });

  it("never leaks an unexpected error's message", () => {
    expect(toApiError(new Error("password=hunter2 at db.internal"))).toEqual({
      status: 500,
      code: "internal_error",
      message: "internal error",
      headers: {},
    });
    expect(toApiError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "secret detail" })).message).toBe(
      "internal error",
    );
  });
});
