import type { AppRouter } from "@mga/api";
import { createTRPCClient, httpLink } from "@trpc/client";

/** Base URL of the API host (its tRPC endpoint is `${base}/trpc`), from the server's environment. */
export function apiBaseUrl(): string {
  return (process.env.ADMIN_API_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
}

/** The API session a signed-in staff member holds (kept in the console's own httpOnly cookies). */
export interface StaffCredentials {
  sessionToken: string;
  csrfToken: string;
}

/**
 * A typed tRPC client for the API. `AppRouter` is a type-only import, erased at build time,
 * so none of @mga/api's runtime ends up in the console's bundles. Server-side only: with
 * credentials it presents the API's session cookie and the CSRF header, as a browser would.
 */
export function createApiClient(baseUrl: string = apiBaseUrl(), credentials?: StaffCredentials, fetchImpl: typeof fetch = fetch) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/trpc`,
        fetch: fetchImpl,
        headers: () =>
          credentials ? { Cookie: `mga_staff=${encodeURIComponent(credentials.sessionToken)}`, "X-CSRF-Token": credentials.csrfToken } : {},
      }),
    ],
  });
}

export type ApiClient = ReturnType<typeof createApiClient>;
