"use client";

import type { FormState } from "@/lib/form-state";
import { createContext, useContext, useState, type ReactNode } from "react";

/**
 * Where a section (every `Section` is one) shows what its last action did: one message at a
 * time, whichever of its forms, table rows or confirmations ran it. An action can change
 * which controls the section renders (reprovisioning turns "Reprovision…" into "Disable…";
 * revoking a key removes its forms), and a message kept by the control would go with it; the
 * region stays in place, so the message survives the re-render. Field errors stay beside
 * their fields; only the sentence for the whole form comes here.
 */
type Report = (state: FormState | undefined) => void;
const OutcomeContext = createContext<Report | null>(null);

export function OutcomeRegion({ children }: { children: ReactNode }) {
  const [state, setState] = useState<FormState | undefined>();
  return (
    <OutcomeContext value={setState}>
      {children}
      {state ? <OutcomeMessage state={state} /> : null}
    </OutcomeContext>
  );
}

/** The enclosing region's reporter, or none outside a Section (sign-in, invitation). */
export function useOutcomeRegion(): Report | null {
  return useContext(OutcomeContext);
}

/** A form's outcome as one message: the sentence, and the API's own text on a details line. */
export function OutcomeMessage({ state }: { state: FormState }) {
  if (state.status === "error") {
    const fieldsMarked = state.fieldErrors && Object.keys(state.fieldErrors).length;
    return (
      <div className="form-error-box" role="alert">
        <p className="form-error">
          {state.message ?? (fieldsMarked ? "Check the fields marked above." : "Something went wrong.")}
        </p>
        {state.detail ? (
          <p className="hint detail">
            <span className="detail-label">Details:</span> <code>{state.detail}</code>
          </p>
        ) : null}
      </div>
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
