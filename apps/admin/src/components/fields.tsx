"use client";

import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { useId } from "react";
import { useFormOutcome } from "./form-state-context";

/** A labelled input whose error (from the action's fieldErrors) is shown beneath it and announced. */
export function Field({ label, name, hint, ...input }: { label: string; name: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const { state } = useFormOutcome();
  const error = state.fieldErrors?.[name];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={`${id}-hint ${id}-error`} {...input} />
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
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

export function TextArea({ label, name, hint, ...input }: { label: string; name: string; hint?: ReactNode } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const { state } = useFormOutcome();
  const error = state.fieldErrors?.[name];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={`${id}-hint ${id}-error`} {...input} />
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
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

export function SubmitButton({ children, className, pendingLabel }: { children: ReactNode; className?: string; pendingLabel?: string }) {
  const { pending } = useFormOutcome();
  return (
    <button type="submit" className={className ?? "button"} disabled={pending}>
      {pending ? (pendingLabel ?? "Working…") : children}
    </button>
  );
}
