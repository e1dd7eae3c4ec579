import { ActionForm } from "@/components/action-form";
import { Field, SubmitButton } from "@/components/fields";
import { param } from "@/lib/format";
import { readCredentials } from "@/lib/session";
import type { Metadata } from "next";
import { redirect } from "next/navigation";

import { signInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in · Staff console" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const expired = param(await searchParams, "expired") === "1";
  if (!expired && (await readCredentials())) redirect("/organizations");
  return (
    <main className="sign-in">
      <h1>Staff console</h1>
      <p className="hint">Mortgage guideline API: organizations, integrations, keys and partner users.</p>
      {expired ? <p className="notice-box">Your session has ended. Sign in again.</p> : null}
      <ActionForm action={signInAction} label="Sign in">
        <Field label="Email" name="email" type="email" autoComplete="username" required autoFocus />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <SubmitButton pendingLabel="Signing in…">Sign in</SubmitButton>
      </ActionForm>
      <p className="hint">
        No account yet? Ask an admin for an invitation link. The very first account is made on the API host:{" "}
        <code>pnpm cli staff:create --email you@example.com --password …</code>
      </p>
    </main>
  );
}
