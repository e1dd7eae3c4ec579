"use client";

import { ActionForm } from "@/components/action-form";
import { Field, SubmitButton } from "@/components/fields";

import { addUserAction } from "./actions";

/** Admins add one user as the partner's PUT user would; partners usually provision them through the API. */
export function AddUserForm({ integrationId }: { integrationId: string }) {
  return (
    <ActionForm action={addUserAction} label="Add a user" className="form form-inline" resetOnSuccess>
      <input type="hidden" name="integrationId" value={integrationId} />
      <Field label="External user id" name="externalUserId" required maxLength={255} placeholder="lo-1001" />
      <Field label="Email" name="email" type="email" required maxLength={254} />
      <Field label="Name (optional)" name="name" maxLength={200} />
      <Field label="Team (external id, optional)" name="team" maxLength={255} />
      <SubmitButton>Add user</SubmitButton>
    </ActionForm>
  );
}
