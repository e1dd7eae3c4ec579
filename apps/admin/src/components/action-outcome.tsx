"use client";

import { createContext, type ReactNode, useContext, useState } from "react";

/**
 * Where a section shows what its last confirmed action did. An action can change which
 * controls the section renders (reprovisioning turns "Reprovision…" into "Disable…";
 * revoking a key removes its forms), and a message kept by the control would go with it.
 * The region sits at a stable place in the page, so the message stays after the re-render.
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

/** The enclosing region's reporter, or null outside one. */
export function useOutcomeRegion() {
  return useContext(OutcomeContext);
}
