"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";
import type { FormState } from "../lib/form-state";
import { ActionForm } from "./action-form";
import { SubmitButton } from "./fields";

/**
 * A destructive action behind a second, explicit step: the first button only asks; the
 * confirmation (focused, so Enter confirms and Escape backs out) runs the action.
 */
export function ConfirmAction({
  action,
  label,
  question,
  confirmLabel,
  hidden,
  children,
  tone = "danger",
}: {
  action: (state: FormState, form: FormData) => Promise<FormState>;
  label: string;
  question: string;
  confirmLabel: string;
  hidden: Record<string, string>;
  children?: ReactNode;
  tone?: "danger" | "normal";
}) {
  const [asking, setAsking] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancelRef.current?.focus();
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" className={`button ${tone === "danger" ? "button-danger-outline" : "button-secondary"}`} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <div
      className="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key === "Escape") setAsking(false);
      }}
    >
      <ActionForm action={action} label={question}>
        <p className="confirm-question">{question}</p>
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {children}
        <div className="actions">
          <SubmitButton className={tone === "danger" ? "button button-danger" : "button"}>{confirmLabel}</SubmitButton>
          <button ref={cancelRef} type="button" className="button button-secondary" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </div>
      </ActionForm>
    </div>
  );
}
