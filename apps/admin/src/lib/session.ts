import { env } from "@/env";
import { TRPCClientError } from "@trpc/client";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";

import { describeApiErrorMessage } from "./describe-error";
import { apiBaseUrl, createApiClient, type ApiClient, type StaffCredentials } from "./trpc";

/**
 * The console keeps the API's staff session in cookies of its own origin: httpOnly (page
 * scripts never see the session or the CSRF token), SameSite=Strict, and Secure when served
 * over HTTPS. Server components and actions forward them to the API.
 */
const SESSION_COOKIE = "mga_console_session";
const CSRF_COOKIE = "mga_console_csrf";

export async function readCredentials(): Promise<StaffCredentials | undefined> {
  const jar = await cookies();
  const sessionToken = jar.get(SESSION_COOKIE)?.value;
  const csrfToken = jar.get(CSRF_COOKIE)?.value;
  return sessionToken && csrfToken ? { sessionToken, csrfToken } : undefined;
}

/** Staff sessions last 12 hours on the API; the console's cookies expire with them. */
const SESSION_SECONDS = 12 * 60 * 60;

/**
 * Signs in on the API and keeps its session in the console's cookies. The API answers with
 * its session cookie, read off the response here. Throws the API's error (a TRPCClientError).
 */
export async function openSession(email: string, password: string): Promise<void> {
  let sessionCookie: string | undefined;
  const capture: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    sessionCookie = /(?:^|,\s*)mga_staff=([^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1];
    return response;
  };
  const result = await createApiClient(apiBaseUrl(), undefined, capture).staff.signIn.mutate({ email, password });
  if (!sessionCookie) throw new Error("the API did not start a session");
  await storeCredentials(
    { sessionToken: decodeURIComponent(sessionCookie), csrfToken: result.csrf_token },
    SESSION_SECONDS,
  );
}

async function storeCredentials(credentials: StaffCredentials, maxAgeSeconds: number): Promise<void> {
  const jar = await cookies();
  const options = {
    httpOnly: true,
    sameSite: "strict" as const,
    path: "/",
    maxAge: maxAgeSeconds,
    secure: env().ADMIN_COOKIE_SECURE === "true",
  };
  jar.set(SESSION_COOKIE, credentials.sessionToken, options);
  jar.set(CSRF_COOKIE, credentials.csrfToken, options);
}

export async function clearCredentials(): Promise<void> {
  const jar = await cookies();
  jar.delete(SESSION_COOKIE);
  jar.delete(CSRF_COOKIE);
}

/** A client acting as the signed-in staff member; without a session, the sign-in page. */
export async function staffClient(): Promise<ApiClient> {
  const credentials = await readCredentials();
  if (!credentials) redirect("/sign-in");
  return createApiClient(apiBaseUrl(), credentials);
}

export function isSignedOutError(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { httpStatus?: number } | undefined)?.httpStatus === 401;
}

/**
 * Runs a page's API reads; an expired or revoked session sends the browser to sign in again
 * and an unknown id is the not-found page (anything else reaches the page's error boundary).
 */
export async function load<T>(read: (api: ApiClient) => Promise<T>): Promise<T> {
  const api = await staffClient();
  try {
    return await read(api);
  } catch (error) {
    if (isSignedOutError(error)) redirect("/sign-in?expired=1");
    if (error instanceof TRPCClientError && (error.data as { httpStatus?: number } | undefined)?.httpStatus === 404)
      notFound();
    throw error;
  }
}

/** A list request the API refused (400), as the page shows it: in words, the API's text as detail. */
export interface Refusal {
  message: string;
  /** The API's own message, for the hover (it names the parameter). */
  detail: string;
  /** Whether the page link (its cursor) was what the API refused: the page offers the first page. */
  badPageLink: boolean;
}

/** A cursor the API did not issue (typed, altered, or made for other filters). */
const BAD_PAGE_LINK =
  "This page link is not valid (it was changed, or made for other filters). Start again from the first page.";

/**
 * Like load, but a refused request (400: a filter the API does not accept, a page link it did
 * not issue) comes back as a Refusal in plain words, for the page to show beside its filters
 * instead of failing whole.
 */
export async function loadOrRefusal<T>(
  read: (api: ApiClient) => Promise<T>,
): Promise<{ ok: true; value: T } | ({ ok: false } & Refusal)> {
  try {
    return { ok: true, value: await load(read) };
  } catch (error) {
    if (error instanceof TRPCClientError && (error.data as { httpStatus?: number } | undefined)?.httpStatus === 400) {
      const badPageLink = (error.data as { field?: string }).field === "cursor";
      return {
        ok: false,
        message: badPageLink ? BAD_PAGE_LINK : describeApiErrorMessage(error),
        detail: error.message,
        badPageLink,
      };
    }
    throw error;
  }
}
