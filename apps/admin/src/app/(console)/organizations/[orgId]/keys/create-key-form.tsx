"use client";

import { ActionForm } from "../../../../../components/action-form";
import { Field, SubmitButton } from "../../../../../components/fields";
import { useFormOutcome } from "../../../../../components/form-state-context";
import { OneTimeSecret } from "../../../../../components/one-time-secret";
import { createKeyAction } from "./actions";

/** Scopes from the API's list, with the spec's key-separation advice beside them (section 5 item 5). */
export function CreateKeyForm({
  orgId,
  scopes,
  advice,
  maxRateLimit,
}: {
  orgId: string;
  scopes: Array<{ scope: string; description: string }>;
  advice: string[];
  maxRateLimit: number;
}) {
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
          <ScopePicker scopes={scopes} />
          <Field
            label="Rate limit (requests per minute)"
            name="rateLimit"
            type="number"
            min={1}
            max={maxRateLimit}
            hint="Empty: the service default."
          />
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
        </aside>
      </div>
    </ActionForm>
  );
}

function ScopePicker({ scopes }: { scopes: Array<{ scope: string; description: string }> }) {
  const { state } = useFormOutcome();
  const error = state.fieldErrors?.scopes;
  return (
    <fieldset className="scopes" aria-invalid={error ? true : undefined}>
      <legend>Scopes</legend>
      {scopes.map(({ scope, description }) => (
        <label key={scope} className="check">
          <input type="checkbox" name="scopes" value={scope} /> <code>{scope}</code> <span className="hint">{description}</span>
        </label>
      ))}
      {error ? (
        <small className="field-error" data-field-error="scopes">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}
