"use client";

import type { ReactNode } from "react";

import { CopyButton } from "./copy-button";
import { useFormOutcome } from "./form-state-context";

/**
 * A secret from the enclosing form's action result (a new key's plaintext, an invitation's
 * token): it lives only in this page's memory and is gone on the next load (the API keeps
 * only its hash). `toValue` turns it into what is shown and copied (the invitation link).
 */
export function OneTimeSecret({
  region,
  intro,
  copyLabel,
  toValue = (secret) => secret,
}: {
  region: string;
  intro: ReactNode;
  copyLabel: string;
  toValue?: (secret: string) => string;
}) {
  const { state } = useFormOutcome();
  if (state.status !== "ok" || !state.secret) return null;
  const value = toValue(state.secret);
  return (
    <div className="secret" role="region" aria-label={region}>
      <p>{intro}</p>
      <code className="secret-value" data-secret>
        {value}
      </code>
      <CopyButton value={value} label={copyLabel} />
    </div>
  );
}
