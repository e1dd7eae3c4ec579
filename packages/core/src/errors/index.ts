// @mga/core/errors: what the rest of the service may use of this area; everything else is internal.
export { AppError, ERROR_CODES, isAppError } from "./app-error";
export type { ErrorCode } from "./app-error";
export { describeIssues, parseOrThrow } from "./zod-issues";
