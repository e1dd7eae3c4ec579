"use client";

import { ActionForm } from "@/components/action-form";
import { SubmitButton } from "@/components/fields";

import { createOrganizationAction } from "./actions";
import { OrganizationNameField } from "./organization-name-field";
import { CREATE_TICK } from "./organization-names";

/**
 * Names are not unique in the API, but two organizations called the same are almost always a
 * mistake: see OrganizationNameField (renaming works the same way).
 */
export function CreateOrganizationForm({ existingNames }: { existingNames: string[] }) {
  return (
    <ActionForm action={createOrganizationAction} label="Create an organization" className="form form-inline">
      <OrganizationNameField label="Name" existingNames={existingNames} tickLabel={CREATE_TICK} />
      <SubmitButton>Create organization</SubmitButton>
    </ActionForm>
  );
}
