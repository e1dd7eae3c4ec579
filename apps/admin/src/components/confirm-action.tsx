"use client";

import type { FormState } from "@/lib/form-state";
import { useEffect, useRef, useState, type ReactNode } from "react";

import { ActionForm } from "./action-form";
import { useOutcomeRegion } from "./action-outcome";
import { SubmitButton } from "./fields";

/**
 * A destructive or audited action behind a second, explicit step: the first button only asks;
 * the confirmation (focused, so Enter confirms and Escape backs out) runs the action, then
 * closes (its fields go with it, so they are empty next time) and puts focus back on its
 * button. Its ActionForm reports the outcome to the enclosing Section's message area.
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
  const report = useOutcomeRegion();
  if (!report) throw new Error("a confirmed action reports its outcome to an enclosing Section (OutcomeRegion)");
  const cancelRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    // Focus goes into the question when it opens and back to its button when it closes.
    if (asking) cancelRef.current?.focus();
    else if (wasAsking.current) openRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  // Closed as the action returns, not from an effect (the re-rendered page may not hold this form).
  const confirmed = async (state: FormState, form: FormData): Promise<FormState> => {
    const result = await action(state, form);
    if (result.status === "ok") setAsking(false);
    return result.status === "ok" && !result.message ? { ...result, message: "Done." } : result;
  };

  if (!asking) {
    return (
      <button
        ref={openRef}
        type="button"
        className={`button ${tone === "danger" ? "button-danger-outline" : "button-secondary"}`}
        onClick={() => {
          report(undefined);
          setAsking(true);
        }}
      >
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
      <ActionForm action={confirmed} label={question}>
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
