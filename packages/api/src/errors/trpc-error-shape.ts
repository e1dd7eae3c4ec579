import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";

import { toApiError } from "./to-api-error";
import { trpcCodeOf } from "./trpc-code";

/**
 * A failure as the console's tRPC client reads it: tRPC's error shape with the mapped status and
 * message (never a stack), and the spec's envelope beside it. The procedures' error formatter
 * (trpc.ts) builds it for what they throw; the admin listener for what it refuses before tRPC
 * runs (a bad input, a method the procedure does not answer), so the console sees one shape.
 */
export function trpcErrorShape(error: unknown, context: { requestId: string; path?: string | undefined }) {
  const mapped = toApiError(error);
  const code = trpcCodeOf(mapped.status);
  return {
    code: TRPC_ERROR_CODES_BY_KEY[code],
    message: mapped.message,
    data: {
      code,
      httpStatus: mapped.status,
      ...(context.path ? { path: context.path } : {}),
      ...(mapped.field ? { field: mapped.field } : {}),
    },
    envelope: { error: { code: mapped.code, message: mapped.message, request_id: context.requestId } },
  };
}
