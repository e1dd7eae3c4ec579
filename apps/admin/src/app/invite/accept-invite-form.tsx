"use client";

import { ActionForm } from "@/components/action-form";
import { Field, SubmitButton } from "@/components/fields";
import { formatTime } from "@/lib/format";
import { useEffect, useState } from "react";

import { acceptInviteAction, describeInviteAction, type InviteDescription } from "./actions";

/** Where this tab keeps the token once it is out of the address bar (sessionStorage: this tab only, never sent anywhere). */
const TOKEN_KEY = "mga-invite-token";

/**
 * The token travels in the link's fragment, which browsers never send to a server or put in
 * a Referer; this page reads it, takes it out of the address bar, and posts it with the form.
 * The tab remembers it, so reloading the page (F5) still finds it, and pasting the link again
 * into the same tab (only the fragment changes: no new page load) reads it again.
 */
export function AcceptInviteForm() {
  const [token, setToken] = useState<string | undefined>();
  const [invite, setInvite] = useState<InviteDescription | "loading" | "missing">("loading");

  useEffect(() => {
    const read = () => {
      const fromLink = new URLSearchParams(window.location.hash.slice(1)).get("token");
      if (fromLink) {
        window.sessionStorage.setItem(TOKEN_KEY, fromLink);
        window.history.replaceState(null, "", window.location.pathname);
      }
      const found = fromLink ?? window.sessionStorage.getItem(TOKEN_KEY);
      if (!found) {
        setInvite("missing");
        return;
      }
      setToken(found);
      setInvite("loading");
      describeInviteAction(found).then(setInvite, () =>
        setInvite({ ok: false, message: "The API could not be reached. Try again in a moment." }),
      );
    };
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);

  if (invite === "loading") {
    return (
      <p className="loading" role="status">
        Checking the invitation…
      </p>
    );
  }
  if (invite === "missing")
    return (
      <p className="notice-box">This page opens from an invitation link. Ask an admin of the console to invite you.</p>
    );
  if (!invite.ok) {
    return (
      <p className="form-error" role="alert">
        {invite.message}
      </p>
    );
  }
  return (
    <>
      <p>
        You are invited as <strong>{invite.role}</strong>. Choose a password; the link works until{" "}
        {formatTime(invite.expiresAt)}.
      </p>
      <ActionForm action={acceptInviteAction} label="Choose a password" key={token}>
        <input type="hidden" name="token" value={token} />
        {/* Read only: it names the account, and password managers file the password under it. */}
        <Field label="Email" name="email" type="email" value={invite.email} readOnly autoComplete="username" />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint="At least 12 characters, and not a common or easily guessed password."
          autoFocus
        />
        <Field label="Password again" name="confirm" type="password" autoComplete="new-password" required />
        <SubmitButton pendingLabel="Creating your account…">Create account and sign in</SubmitButton>
      </ActionForm>
    </>
  );
}
