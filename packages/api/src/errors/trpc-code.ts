import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";

/**
 * tRPC's own error code for a mapped HTTP status, so a tRPC client (the admin console) sees
 * UNAUTHORIZED for a 401 rather than the INTERNAL_SERVER_ERROR tRPC gives any thrown AppError.
 */
const BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
  502: "BAD_GATEWAY",
};

export function trpcCodeOf(status: number): TRPC_ERROR_CODE_KEY {
  return BY_STATUS[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
}
