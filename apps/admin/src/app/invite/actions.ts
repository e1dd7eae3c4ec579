"use server";

import { describeApiError, describeApiErrorMessage } from "@/lib/describe-error";
import { text, type FormState } from "@/lib/form-state";
import { openSession } from "@/lib/session";
import { createApiClient } from "@/lib/trpc";
import { redirect } from "next/navigation";

export type InviteDescription =
  { ok: true; email: string; role: string; expiresAt: string } | { ok: false; message: string };

/** Whom the link invites, or why it no longer works. */
export async function describeInviteAction(token: string): Promise<InviteDescription> {
  try {
    const invite = await createApiClient().staff.invitations.describe.query({ token });
    return { ok: true, email: invite.email, role: invite.role, expiresAt: invite.expires_at };
  } catch (error) {
    return { ok: false, message: describeApiErrorMessage(error) };
  }
}

/** Creates the account from the link, then signs the new colleague in. */
export async function acceptInviteAction(_state: FormState, form: FormData): Promise<FormState> {
  const token = text(form, "token");
  const password = typeof form.get("password") === "string" ? (form.get("password") as string) : "";
  const confirm = typeof form.get("confirm") === "string" ? (form.get("confirm") as string) : "";
  if (!token) return { status: "error", message: "Open this page from the invitation link you were sent." };
  if (password !== confirm) return { status: "error", fieldErrors: { confirm: "The two passwords differ." } };
  let email: string;
  try {
    ({ email } = await createApiClient().staff.invitations.accept.mutate({ token, password }));
  } catch (error) {
    // "password: at least 12 characters" (or "too easy to guess") belongs under the password input.
    return describeApiError(error, { password: "password" });
  }
  try {
    await openSession(email, password);
  } catch {
    redirect("/sign-in");
  }
  redirect("/organizations");
}
