"use client";

import { ActionForm } from "@/components/action-form";
import { Field, SelectField, SubmitButton } from "@/components/fields";
import { useFormOutcome } from "@/components/form-state-context";
import { OneTimeSecret } from "@/components/one-time-secret";
import { ROLL_OVERLAPS } from "@/lib/key-expiry";

import { rollKeyAction, updateKeyAction } from "./actions";

/** Rename and change scopes; every server applies it from the key's next request (issue 25). */
export function EditKeyForm({
  keyId,
  name,
  scopes,
  catalog,
}: {
  keyId: string;
  name: string;
  scopes: string[];
  catalog: Array<{ scope: string; description: string }>;
}) {
  return (
    <ActionForm action={updateKeyAction} label="Edit key">
      <input type="hidden" name="keyId" value={keyId} />
      <Field label="Name" name="name" required maxLength={200} defaultValue={name} />
      <ScopeChecks catalog={catalog} chosen={scopes} />
      <p className="hint">
        A removed scope is refused (403) from the key&apos;s next request; an added one works at once.
      </p>
      <SubmitButton>Save name and scopes</SubmitButton>
    </ActionForm>
  );
}

function ScopeChecks({
  catalog,
  chosen,
}: {
  catalog: Array<{ scope: string; description: string }>;
  chosen: string[];
}) {
  const { state } = useFormOutcome();
  const error = state.fieldErrors?.scopes;
  return (
    <fieldset
      className="scopes"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? "edit-scopes-error" : undefined}
    >
      <legend>Scopes</legend>
      {catalog.map(({ scope, description }) => (
        <label key={scope} className="check">
          <input type="checkbox" name="scopes" value={scope} defaultChecked={chosen.includes(scope)} />{" "}
          <code>{scope}</code> <span className="hint">{description}</span>
        </label>
      ))}
      {error ? (
        <small id="edit-scopes-error" className="field-error" data-field-error="scopes">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}

/**
 * A successor with the same name, scopes, rate limit, alias grants and launch binding; its key
 * is shown here once. The old key keeps working until the chosen time.
 */
export function RollKeyForm({ keyId }: { keyId: string }) {
  return (
    <ActionForm action={rollKeyAction} label="Roll key">
      <input type="hidden" name="keyId" value={keyId} />
      <OneTimeSecret
        region="New API key"
        copyLabel="Copy new key"
        intro={
          <>
            <strong>Copy the new key now.</strong> It is shown only this once. Hand it to the partner before the old key
            stops working.
          </>
        }
      />
      <SelectField
        label="The old key stops working"
        name="overlap"
        defaultValue={String(86_400)}
        hint="The new key works at once; both work until then."
      >
        {ROLL_OVERLAPS.map(({ seconds, label }) => (
          <option key={seconds} value={seconds}>
            {label}
          </option>
        ))}
      </SelectField>
      <SubmitButton>Roll key</SubmitButton>
    </ActionForm>
  );
}
