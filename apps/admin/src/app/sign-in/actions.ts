"use server";

import { TRPCClientError } from "@trpc/client";
import { redirect } from "next/navigation";
import { type FormState, text } from "../../lib/form-state";
import { clearCredentials, readCredentials, storeCredentials } from "../../lib/session";
import { apiBaseUrl, createApiClient } from "../../lib/trpc";

/** Staff sessions last 12 hours on the API; the console's cookies expire with them. */
const SESSION_SECONDS = 12 * 60 * 60;

export async function signInAction(_state: FormState, form: FormData): Promise<FormState> {
  const email = text(form, "email");
  const password = typeof form.get("password") === "string" ? (form.get("password") as string) : "";
  if (!email || !password) return { status: "error", message: "Enter your email and password." };
  let sessionCookie: string | undefined;
  // The API answers sign-in with its session cookie; read it off the response to keep it here.
  const capture: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    sessionCookie = /(?:^|,\s*)mga_staff=([^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1];
    return response;
  };
  try {
    const result = await createApiClient(apiBaseUrl(), undefined, capture).staff.signIn.mutate({ email, password });
    if (!sessionCookie) return { status: "error", message: "The API did not start a session." };
    await storeCredentials({ sessionToken: decodeURIComponent(sessionCookie), csrfToken: result.csrf_token }, SESSION_SECONDS);
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
      if (status === 401) return { status: "error", message: "Wrong email or password." };
      if (status === 403) return { status: "error", message: error.message };
    }
    return { status: "error", message: "The API could not be reached. Try again in a moment." };
  }
  redirect("/organizations");
}

export async function signOutAction(): Promise<void> {
  const credentials = await readCredentials();
  if (credentials) {
    // Ends the session on the API too; the console's cookies go whatever the API says.
    await createApiClient(apiBaseUrl(), credentials)
      .staff.signOut.mutate()
      .catch(() => undefined);
  }
  await clearCredentials();
  redirect("/sign-in");
}
