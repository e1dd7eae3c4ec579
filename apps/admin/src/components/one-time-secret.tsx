"use client";

import { CopyButton } from "./copy-button";
import { useFormOutcome } from "./form-state-context";

/**
 * A new key's plaintext, from the create action's result: it lives only in this page's
 * memory and is gone on the next load (the API keeps only its hash).
 */
export function OneTimeSecret() {
  const { state } = useFormOutcome();
  if (state.status !== "ok" || !state.secret) return null;
  return (
    <div className="secret" role="region" aria-label="New API key">
      <p>
        <strong>Copy the key now.</strong> It is shown only this once; afterwards only its last four characters are.
      </p>
      <code className="secret-value" data-secret>
        {state.secret}
      </code>
      <CopyButton value={state.secret} label="Copy key" />
      {state.warnings?.length ? (
        <ul className="warnings">
          {state.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
