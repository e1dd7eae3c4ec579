"use client";

import { type ReactNode, startTransition, useActionState, useEffect, useRef } from "react";
import { type FormState, idleState } from "@/lib/form-state";
import { OutcomeMessage, useOutcomeRegion } from "./action-outcome";
import { FormStateContext } from "./form-state-context";

type Action = (state: FormState, form: FormData) => Promise<FormState>;

/**
 * A form bound to a server action. Submitted through startTransition rather than `<form
 * action>`, so React does not reset the inputs: after an error the staff member corrects what
 * they typed instead of typing it again. `resetOnSuccess` clears create-forms once they worked.
 *
 * The browser's own validation is off (noValidate): it would stop at the first empty required
 * input with a bubble, while the action reports every problem at once beside its field. After
 * an error, focus moves to the first field marked invalid. The sentence for the whole form goes
 * to the enclosing section's one message area (action-outcome.tsx), or in place outside one.
 */
export function ActionForm({ action, children, className, resetOnSuccess = false, label }: { action: Action; children: ReactNode; className?: string; resetOnSuccess?: boolean; label?: string }) {
  const report = useOutcomeRegion();
  // Reported as the action returns, not from an effect: the page re-rendered by the action may
  // no longer contain this form, and an unmounted form runs no effects.
  const reporting: Action = async (previous, form) => {
    const result = await action(previous, form);
    report?.(result);
    return result;
  };
  const [state, dispatch, pending] = useActionState(reporting, idleState);
  const formRef = useRef<HTMLFormElement>(null);

  // The action revalidates the pages (lib/actions.ts), so the tables around already show the change.
  useEffect(() => {
    if (state.status === "ok" && resetOnSuccess) formRef.current?.reset();
    if (state.status === "error") focusFirstInvalid(formRef.current);
  }, [state, resetOnSuccess]);

  return (
    <form
      ref={formRef}
      className={className ?? "form"}
      aria-label={label}
      aria-busy={pending}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        report?.(undefined);
        startTransition(() => dispatch(data));
      }}
    >
      <FormStateContext value={{ state, pending }}>
        {children}
        {report ? null : <OutcomeMessage state={state} />}
      </FormStateContext>
    </form>
  );
}

/** The first control marked invalid (a group of checkboxes: its first box). */
function focusFirstInvalid(form: HTMLFormElement | null): void {
  const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  const target = invalid instanceof HTMLFieldSetElement ? invalid.querySelector<HTMLElement>("input, select, textarea") : invalid;
  target?.focus();
}
