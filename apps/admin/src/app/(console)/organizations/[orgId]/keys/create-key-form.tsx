"use client";

import { useEffect, useState } from "react";
import { ActionForm } from "@/components/action-form";
import { Field, SubmitButton } from "@/components/fields";
import { useFormOutcome } from "@/components/form-state-context";
import { OneTimeSecret } from "@/components/one-time-secret";
import { createKeyAction } from "./actions";

type SoloScope = { scope: string; warning: string };

/**
 * Scopes from the API's list, with the spec's key-separation advice beside them (section 5
 * item 5). Where the scopes being ticked depart from it, the advice says so at once, before
 * the key exists, with the API's rule and words (`soloScopes`, core's SOLO_SCOPES).
 */
export function CreateKeyForm({
  orgId,
  scopes,
  advice,
  soloScopes,
  maxRateLimit,
}: {
  orgId: string;
  scopes: Array<{ scope: string; description: string }>;
  advice: string[];
  soloScopes: SoloScope[];
  maxRateLimit: number;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const warnings = soloScopes.filter(({ scope }) => chosen.includes(scope) && chosen.some((other) => other !== scope)).map(({ warning }) => warning);
  return (
    <ActionForm action={createKeyAction} label="Create an API key" resetOnSuccess>
      <input type="hidden" name="orgId" value={orgId} />
      <OneTimeSecret
        region="New API key"
        copyLabel="Copy key"
        intro={
          <>
            <strong>Copy the key now.</strong> It is shown only this once; afterwards only its last four characters are.
          </>
        }
      />
      <div className="split">
        <div>
          <Field label="Name" name="name" required maxLength={200} placeholder="acme server" />
          <ScopePicker scopes={scopes} onChange={setChosen} />
          <Field label="Rate limit (requests per minute)" name="rateLimit" type="number" min={1} max={maxRateLimit} hint="Empty: the service default." />
          <Field label="Expires on (optional)" name="expiresOn" type="date" hint="The key stops working at 00:00 UTC that day, at most 365 days ahead. Empty: it never expires." />
          <SubmitButton>Create key</SubmitButton>
        </div>
        <aside className="advice" aria-label="Key separation advice">
          <h3>Keep keys separate</h3>
          <ul>
            {advice.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="hint">The deletion scope is never added to an existing key: create a key that holds it.</p>
          <div role="status" aria-live="polite">
            {warnings.length ? (
              <ul className="warnings" data-scope-warnings>
                {warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            ) : null}
          </div>
        </aside>
      </div>
    </ActionForm>
  );
}

/** The scope checkboxes; reports the ticked scopes as they change (and empties with the form's reset). */
function ScopePicker({ scopes, onChange }: { scopes: Array<{ scope: string; description: string }>; onChange: (chosen: string[]) => void }) {
  const { state } = useFormOutcome();
  const error = state.fieldErrors?.scopes;
  // A created key resets the form, which unticks the boxes without a change event.
  useEffect(() => {
    if (state.status === "ok") onChange([]);
  }, [state, onChange]);
  return (
    <fieldset
      className="scopes"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? "scopes-error" : undefined}
      onChange={(event) => {
        const boxes = event.currentTarget.querySelectorAll<HTMLInputElement>('input[name="scopes"]:checked');
        onChange([...boxes].map((box) => box.value));
      }}
    >
      <legend>Scopes</legend>
      {scopes.map(({ scope, description }) => (
        <label key={scope} className="check">
          <input type="checkbox" name="scopes" value={scope} /> <code>{scope}</code> <span className="hint">{description}</span>
        </label>
      ))}
      {error ? (
        <small id="scopes-error" className="field-error" data-field-error="scopes">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}
