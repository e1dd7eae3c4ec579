import type { AppRouter } from "@mga/api";
import { createTRPCClient, httpLink } from "@trpc/client";

/** Base URL of the API host (its tRPC endpoint is `${base}/trpc`), from the server's environment. */
export function apiBaseUrl(): string {
  return (process.env.ADMIN_API_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
}

/**
 * A typed tRPC client for the API. `AppRouter` is a type-only import, erased at build time,
 * so none of @mga/api's runtime ends up in the console's bundles. Server-side only.
 */
export function createApiClient(baseUrl: string = apiBaseUrl()) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/trpc` })],
  });
}
