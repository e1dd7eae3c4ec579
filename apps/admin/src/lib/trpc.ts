import type { AppRouter } from "@mga/api";
import { createTRPCClient, httpLink } from "@trpc/client";

/** Base URL of the API host; its tRPC endpoint is served under /trpc. */
export function apiBaseUrl(): string {
  return (process.env.ADMIN_API_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
}

/**
 * A typed tRPC client for the API. `AppRouter` is a type-only import (erased at build time),
 * so none of @mga/api's runtime is bundled into the console. Server-side only: the API URL is
 * read from the server's environment on each request.
 */
export function createApiClient(baseUrl: string = apiBaseUrl()) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/trpc`,
        // Fail fast instead of hanging the page render when the API does not answer.
        fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(5_000) }),
      }),
    ],
  });
}

export type ApiClient = ReturnType<typeof createApiClient>;
