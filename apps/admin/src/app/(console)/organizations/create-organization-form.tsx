"use client";

import { useState } from "react";
import { ActionForm } from "@/components/action-form";
import { Field, SubmitButton } from "@/components/fields";
import { createOrganizationAction } from "./actions";
import { duplicateNameWarning, sameOrganizationName } from "./organization-names";

/**
 * Names are not unique in the API, but two organizations called the same are almost always a
 * mistake: the warning shows while the name is typed, and creating a second one takes an
 * explicit tick (the action checks it too, against the current list).
 */
export function CreateOrganizationForm({ existingNames }: { existingNames: string[] }) {
  const [name, setName] = useState("");
  const duplicate = name.trim() !== "" && existingNames.some((existing) => sameOrganizationName(existing, name));
  return (
    <ActionForm action={createOrganizationAction} label="Create an organization" className="form form-inline">
      <Field
        label="Name"
        name="name"
        required
        maxLength={200}
        placeholder="Acme Lending"
        value={name}
        onChange={(event) => setName(event.target.value)}
        hint={
          duplicate ? (
            <span className="field-warning" data-duplicate-warning>
              {duplicateNameWarning(name)}
            </span>
          ) : undefined
        }
      />
      {duplicate ? (
        <label className="check">
          <input type="checkbox" name="confirmDuplicate" value="1" /> Create another with this name
        </label>
      ) : null}
      <SubmitButton>Create organization</SubmitButton>
    </ActionForm>
  );
}
