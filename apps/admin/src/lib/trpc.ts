import { env } from "@/env";
import { createTRPCClient, httpLink } from "@trpc/client";
import { headers } from "next/headers";

import type { AdminRouter } from "@mga/api";

import { signVisitor, VISITOR_HEADER } from "./visitor-signature";

/**
 * Base URL of the API's admin listener (its tRPC endpoint is `${base}/trpc`), from the
 * server's environment: ADMIN_API_URL, which the run command points at ADMIN_API_PORT.
 */
export function apiBaseUrl(): string {
  return env().ADMIN_API_URL;
}

/** The API session a signed-in staff member holds (kept in the console's own httpOnly cookies). */
export interface StaffCredentials {
  sessionToken: string;
  csrfToken: string;
}

/**
 * The address of the browser this request serves (server.mjs puts it in X-Forwarded-For), sent
 * on to the API, whose sign-in throttle counts per address. Signed, since the API believes no
 * unsigned address from the console's side; none outside a request or without the key.
 */
async function visitorAddress(): Promise<Record<string, string>> {
  const key = env().ADMIN_FORWARDING_KEY;
  if (!key) return {};
  try {
    const address = (await headers()).get("x-forwarded-for");
    return address ? { [VISITOR_HEADER]: signVisitor(address, key) } : {};
  } catch {
    return {};
  }
}

/**
 * A typed tRPC client for the API. `AdminRouter` is a type-only import, erased at build time,
 * so none of @mga/api's runtime ends up in the console's bundles. Server-side only: with
 * credentials it presents the API's session cookie and the CSRF header, as a browser would.
 */
export function createApiClient(
  baseUrl: string = apiBaseUrl(),
  credentials?: StaffCredentials,
  fetchImpl: typeof fetch = fetch,
) {
  return createTRPCClient<AdminRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/trpc`,
        fetch: fetchImpl,
        headers: async () => ({
          ...(await visitorAddress()),
          ...(credentials
            ? {
                Cookie: `mga_staff=${encodeURIComponent(credentials.sessionToken)}`,
                "X-CSRF-Token": credentials.csrfToken,
              }
            : {}),
        }),
      }),
    ],
  });
}

export type ApiClient = ReturnType<typeof createApiClient>;
