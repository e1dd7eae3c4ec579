"use client";

import { idleState, type FormState } from "@/lib/form-state";
import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";

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
 *
 * An error beside a field goes as soon as that field changes (it described what was there
 * before: "Choose at least one scope." under ticked boxes contradicts the form). A control
 * belongs to the field error named by its `data-error-key`, else its `name`.
 */
export function ActionForm({
  action,
  children,
  className,
  resetOnSuccess = false,
  label,
}: {
  action: Action;
  children: ReactNode;
  className?: string;
  resetOnSuccess?: boolean;
  label?: string;
}) {
  const report = useOutcomeRegion();
  // Reported as the action returns, not from an effect: the page re-rendered by the action may
  // no longer contain this form, and an unmounted form runs no effects.
  const reporting: Action = async (previous, form) => {
    const outcome = await action(previous, form);
    report?.(outcome);
    return outcome;
  };
  const [result, dispatch, pending] = useActionState(reporting, idleState);
  const formRef = useRef<HTMLFormElement>(null);
  // The fields changed since `result` came back; a new result starts again with none.
  const [edited, setEdited] = useState<{ of: FormState; names: ReadonlySet<string> }>({
    of: idleState,
    names: new Set(),
  });
  const changed = edited.of === result ? edited.names : new Set<string>();
  const state = withoutErrorsOf(result, changed);

  const onEdit = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    const key = target.closest<HTMLElement>("[data-error-key]")?.dataset.errorKey ?? (target as HTMLInputElement).name;
    if (!key || !result.fieldErrors?.[key] || changed.has(key)) return;
    const names = new Set([...changed, key]);
    setEdited({ of: result, names });
    // The last marked field fixed: a sentence that only pointed at the fields goes too.
    if (!result.message && Object.keys(result.fieldErrors).every((name) => names.has(name))) report?.(undefined);
  };

  // The action revalidates the pages (lib/actions.ts), so the tables around already show the change.
  useEffect(() => {
    if (result.status === "ok" && resetOnSuccess) formRef.current?.reset();
    if (result.status === "error") focusFirstInvalid(formRef.current);
  }, [result, resetOnSuccess]);

  return (
    <form
      ref={formRef}
      className={className ?? "form"}
      aria-label={label}
      aria-busy={pending}
      noValidate
      onInput={onEdit}
      onChange={onEdit}
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
  const target =
    invalid instanceof HTMLFieldSetElement ? invalid.querySelector<HTMLElement>("input, select, textarea") : invalid;
  target?.focus();
}

/** `state` without the field errors of the fields in `changed` (the same object when there are none). */
function withoutErrorsOf(state: FormState, changed: ReadonlySet<string>): FormState {
  if (!state.fieldErrors || changed.size === 0) return state;
  const remaining = Object.fromEntries(Object.entries(state.fieldErrors).filter(([name]) => !changed.has(name)));
  const { fieldErrors: _dropped, ...rest } = state;
  if (Object.keys(remaining).length) return { ...rest, fieldErrors: remaining };
  // Nothing marked any more: the form's own sentence, if any, is all that is left.
  return rest.message ? rest : { status: "idle" };
}
