"use client";

import { type ReactNode, startTransition, useActionState, useEffect, useRef } from "react";
import { type FormState, idleState } from "../lib/form-state";
import { FormStateContext } from "./form-state-context";

type Action = (state: FormState, form: FormData) => Promise<FormState>;

/**
 * A form bound to a server action, showing its outcome in place. Submitted through
 * startTransition rather than `<form action>`, so React does not reset the inputs: after an
 * error the staff member corrects what they typed instead of typing it again. `resetOnSuccess`
 * clears create-forms once they worked; `focusFirstInvalid` moves focus to the first input
 * marked invalid after a refusal.
 */
export function ActionForm({
  action,
  children,
  className,
  resetOnSuccess = false,
  focusFirstInvalid = false,
  label,
}: {
  action: Action;
  children: ReactNode;
  className?: string;
  resetOnSuccess?: boolean;
  focusFirstInvalid?: boolean;
  label?: string;
}) {
  const [state, dispatch, pending] = useActionState(action, idleState);
  const formRef = useRef<HTMLFormElement>(null);

  // The action revalidates the pages (lib/actions.ts), so the tables around already show the change.
  useEffect(() => {
    if (state.status === "ok" && resetOnSuccess) formRef.current?.reset();
  }, [state, resetOnSuccess]);

  // After a refusal, focus goes to the first input marked invalid: its message is beside it,
  // and the staff member corrects it without hunting for it. Opt-in: on the invitation form
  // (password inputs) moving focus this way broke the next submission in Chromium (not yet
  // understood), so forms turn it on where it was checked in a browser.
  useEffect(() => {
    if (!focusFirstInvalid || state.status !== "error" || !state.fieldErrors) return;
    formRef.current?.querySelector<HTMLElement>('input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"]')?.focus();
  }, [state, focusFirstInvalid]);

  return (
    <form
      ref={formRef}
      className={className ?? "form"}
      aria-label={label}
      aria-busy={pending}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => dispatch(data));
      }}
    >
      <FormStateContext value={{ state, pending }}>
        {children}
        <FormMessage state={state} />
      </FormStateContext>
    </form>
  );
}

function FormMessage({ state }: { state: FormState }) {
  if (state.status === "error") {
    return (
      <p className="form-error" role="alert">
        {state.message ?? (state.fieldErrors && Object.keys(state.fieldErrors).length ? "Check the fields marked above." : "Something went wrong.")}
      </p>
    );
  }
  if (state.status === "ok" && state.message) {
    return (
      <p className="form-ok" role="status">
        {state.message}
      </p>
    );
  }
  return null;
}
