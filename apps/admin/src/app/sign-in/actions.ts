"use server";

import { text, type FormState } from "@/lib/form-state";
import { clearCredentials, openSession, readCredentials } from "@/lib/session";
import { apiBaseUrl, createApiClient } from "@/lib/trpc";
import { sentence } from "@/lib/words";
import { TRPCClientError } from "@trpc/client";
import { redirect } from "next/navigation";

export async function signInAction(_state: FormState, form: FormData): Promise<FormState> {
  const email = text(form, "email");
  const password = typeof form.get("password") === "string" ? (form.get("password") as string) : "";
  if (!email || !password) return { status: "error", message: "Enter your email and password." };
  try {
    await openSession(email, password);
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
      if (status === 401) return { status: "error", message: "Wrong email or password." };
      // Disabled, or too many failed attempts (from this account or this address): the API says until when.
      if (status === 403 || status === 429) return { status: "error", message: sentence(error.message) };
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
