"use client";

import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";

import { useFormOutcome } from "./form-state-context";

/**
 * A labelled input whose error (from the action's fieldErrors) is shown beneath it and announced.
 * `warning` is advice about what was typed (a name already in use): shown until an error about
 * the same field is, which then says it (one problem, one message).
 */
export function Field({
  label,
  name,
  hint,
  warning,
  ...input
}: { label: string; name: string; hint?: ReactNode; warning?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame
      label={label}
      name={name}
      hint={hint}
      warning={warning}
      control={(props) => <input {...props} {...input} />}
    />
  );
}

export function TextArea({
  label,
  name,
  hint,
  ...input
}: { label: string; name: string; hint?: ReactNode } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <FieldFrame label={label} name={name} hint={hint} control={(props) => <textarea {...props} {...input} />} />;
}

/** A labelled choice (its options as children), with its error beside it like any field. */
export function SelectField({
  label,
  name,
  hint,
  children,
  ...select
}: { label: string; name: string; hint?: ReactNode; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <FieldFrame
      label={label}
      name={name}
      hint={hint}
      control={(props) => (
        <select {...props} {...select}>
          {children}
        </select>
      )}
    />
  );
}

interface ControlProps {
  id: string;
  name: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string;
}

/** Label, control, hint and error, tied together by ids for screen readers. */
function FieldFrame({
  label,
  name,
  hint,
  warning,
  control,
}: {
  label: string;
  name: string;
  hint?: ReactNode;
  warning?: ReactNode;
  control: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const { state } = useFormOutcome();
  const error = state.fieldErrors?.[name];
  const advice = error ? hint : (warning ?? hint);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({ id, name, "aria-invalid": error ? true : undefined, "aria-describedby": `${id}-hint ${id}-error` })}
      {advice ? (
        <small id={`${id}-hint`} className="hint">
          {advice}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} className="field-error" data-field-error={name}>
          {error}
        </small>
      ) : null}
    </div>
  );
}

export function SubmitButton({
  children,
  className,
  pendingLabel,
}: {
  children: ReactNode;
  className?: string;
  pendingLabel?: string;
}) {
  const { pending } = useFormOutcome();
  return (
    <button type="submit" className={className ?? "button"} disabled={pending}>
      {pending ? (pendingLabel ?? "Working…") : children}
    </button>
  );
}
