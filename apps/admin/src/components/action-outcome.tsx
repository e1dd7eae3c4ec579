"use client";

import { createContext, type ReactNode, useContext, useState } from "react";

/**
 * Where a section (every `Section` is one) shows what its last confirmed action did. An
 * action can change which controls the section renders (reprovisioning turns "Reprovision…"
 * into "Disable…"; revoking a key removes its forms), and a message kept by the control would
 * go with it. The region stays in place, so the message survives the re-render.
 */
const OutcomeContext = createContext<((message: string | undefined) => void) | null>(null);

export function OutcomeRegion({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<string | undefined>();
  return (
    <OutcomeContext value={setMessage}>
      {children}
      {message ? (
        <p className="form-ok" role="status">
          {message}
        </p>
      ) : null}
    </OutcomeContext>
  );
}

/** The enclosing region's reporter. */
export function useOutcomeRegion(): (message: string | undefined) => void {
  const report = useContext(OutcomeContext);
  if (!report) throw new Error("a confirmed action reports its outcome to an enclosing Section (OutcomeRegion)");
  return report;
}
