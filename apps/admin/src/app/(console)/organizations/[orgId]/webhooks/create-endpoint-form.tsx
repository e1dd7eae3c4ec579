"use client";

import { ActionForm } from "@/components/action-form";
import { Field, SubmitButton } from "@/components/fields";
import { useFormOutcome } from "@/components/form-state-context";
import { OneTimeSecret } from "@/components/one-time-secret";

import { createEndpointAction } from "./actions";

/** URL, event types and an optional integration; the signing secret is shown once when it is added. */
export function CreateEndpointForm({
  orgId,
  eventTypes,
  integrations,
}: {
  orgId: string;
  eventTypes: string[];
  integrations: string[];
}) {
  return (
    <ActionForm action={createEndpointAction} label="Add a webhook endpoint" resetOnSuccess>
      <input type="hidden" name="orgId" value={orgId} />
      <OneTimeSecret
        region="New signing secret"
        copyLabel="Copy secret"
        intro={
          <>
            <strong>Copy the signing secret now</strong> and give it to the partner: it is shown only this once (roll it
            for a new one).
          </>
        }
      />
      <Field label="URL" name="url" required maxLength={2048} placeholder="https://partner.example.com/hooks/mga" />
      <EventTypePicker eventTypes={eventTypes} />
      <label className="field">
        <span>Integration</span>
        <select name="integration" defaultValue="">
          <option value="">All of the organization's events</option>
          {integrations.map((slug) => (
            <option key={slug} value={slug}>
              Only {slug}
            </option>
          ))}
        </select>
      </label>
      <Field label="Description" name="description" maxLength={200} placeholder="Acme LOS production" />
      <SubmitButton>Add endpoint</SubmitButton>
    </ActionForm>
  );
}

function EventTypePicker({ eventTypes }: { eventTypes: string[] }) {
  const { state } = useFormOutcome();
  const error = state.fieldErrors?.eventTypes;
  return (
    <fieldset
      className="scopes"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? "event-types-error" : undefined}
    >
      <legend>Event types</legend>
      {eventTypes.map((type) => (
        <label key={type} className="check">
          <input type="checkbox" name="eventTypes" value={type} /> <code>{type}</code>
        </label>
      ))}
      {error ? (
        <small id="event-types-error" className="field-error" data-field-error="eventTypes">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}
