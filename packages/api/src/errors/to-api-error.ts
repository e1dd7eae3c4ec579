import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";

import { AppError, describeIssues, type ErrorCode } from "@mga/core/errors";

import { databaseConflict } from "./database-conflict";
import { HTTP_STATUS_OF } from "./http-status";

/** What the transport sends for any failure: status, envelope fields, extra headers. */
export interface ApiErrorResponse {
  status: number;
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
  /** The input a domain refusal is about (AppError.field); only the console's tRPC answers carry it. */
  field?: string | undefined;
}

/**
 * Maps anything thrown while serving a request to its public form. Domain errors keep their
 * code and message; input validation names the fields; adapter errors get their status; a
 * constraint refusing a write raced by another request is a conflict (database-conflict.ts);
 * everything else is a 500 with a fixed message, so internals never leak.
 */
export function toApiError(error: unknown): ApiErrorResponse {
  // A result that does not match its procedure's `.output()` is our bug, not the caller's input.
  if (isOutputValidationFailure(error)) return internalError();
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof AppError) {
    return {
      status: cause.status ?? HTTP_STATUS_OF[cause.code],
      code: cause.code,
      message: cause.message,
      headers: cause.headers,
      field: cause.field,
    };
  }
  if (cause instanceof ZodError) {
    return { status: 400, code: "invalid_request", message: describeIssues(cause.issues), headers: {} };
  }
  const conflict = databaseConflict(cause);
  if (conflict) return conflict;
  if (error instanceof TRPCError) {
    switch (error.code) {
      case "NOT_FOUND":
        return { status: 404, code: "not_found", message: "no such route", headers: {} };
      case "METHOD_NOT_SUPPORTED":
        return { status: 405, code: "invalid_request", message: "method not allowed on this route", headers: {} };
      case "UNSUPPORTED_MEDIA_TYPE":
        return {
          status: 415,
          code: "invalid_request",
          message: "request bodies must be sent as Content-Type: application/json",
          headers: {},
        };
      case "PAYLOAD_TOO_LARGE":
        return { status: 413, code: "invalid_request", message: "request body too large", headers: {} };
      case "PARSE_ERROR":
        return { status: 400, code: "invalid_request", message: "request body is not valid JSON", headers: {} };
      case "BAD_REQUEST":
        return { status: 400, code: "invalid_request", message: "invalid request", headers: {} };
      default:
        break;
    }
  }
  return internalError();
}

function internalError(): ApiErrorResponse {
  return { status: 500, code: "internal_error", message: "internal error", headers: {} };
}

/** tRPC reports a failed `.output()` check as this error, with the ZodError as its cause. */
function isOutputValidationFailure(error: unknown): boolean {
  return (
    error instanceof TRPCError &&
    error.code === "INTERNAL_SERVER_ERROR" &&
    error.message === "Output validation failed" &&
    error.cause instanceof ZodError
  );
}
