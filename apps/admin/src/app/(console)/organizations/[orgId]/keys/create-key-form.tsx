"use client";

import { ActionForm } from "@/components/action-form";
import { Field, SubmitButton } from "@/components/fields";
import { useFormOutcome } from "@/components/form-state-context";
import { useEffect, useState, type ReactNode } from "react";

import { createKeyAction } from "./actions";
import { NewKeyDialog } from "./new-key-dialog";

type SoloScope = { scope: string; warning: string };

/**
 * Scopes from the API's list, with the spec's key-separation advice beside the checkboxes
 * (section 5 item 5). Where the scopes being ticked depart from it, the advice says so at
 * once, before the key exists, with the API's rule and words (`soloScopes`, core's
 * SOLO_SCOPES). No placeholders: an example in a box reads as a value already typed; the
 * examples are in the hints. The new key's secret opens in a dialog (new-key-dialog.tsx).
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
  const warnings = soloScopes
    .filter(({ scope }) => chosen.includes(scope) && chosen.some((other) => other !== scope))
    .map(({ warning }) => warning);
  return (
    <ActionForm action={createKeyAction} label="Create an API key" resetOnSuccess>
      <input type="hidden" name="orgId" value={orgId} />
      <NewKeyDialog />
      <Field label="Name" name="name" required maxLength={200} hint="What uses the key, for example acme server." />
      <ScopePicker scopes={scopes} onChange={setChosen}>
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
      </ScopePicker>
      <Field
        label="Rate limit (requests per minute)"
        name="rateLimit"
        type="number"
        min={1}
        max={maxRateLimit}
        hint="Leave empty for the service default."
      />
      <Field
        label="Expires on (optional)"
        name="expiresOn"
        type="date"
        hint="The key stops working at 00:00 UTC that day, at most 365 days ahead. Leave empty for a key that never expires."
      />
      <SubmitButton>Create key</SubmitButton>
    </ActionForm>
  );
}

/** The scope checkboxes with `children` (the advice) beside them; reports the ticked scopes as they change (and empties with the form's reset). */
function ScopePicker({
  scopes,
  onChange,
  children,
}: {
  scopes: Array<{ scope: string; description: string }>;
  onChange: (chosen: string[]) => void;
  children: ReactNode;
}) {
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
      <div className="split">
        <div className="scope-boxes">
          {scopes.map(({ scope, description }) => (
            <label key={scope} className="check">
              <input type="checkbox" name="scopes" value={scope} /> <code>{scope}</code>{" "}
              <span className="hint">{description}</span>
            </label>
          ))}
        </div>
        {children}
      </div>
      {error ? (
        <small id="scopes-error" className="field-error" data-field-error="scopes">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}
