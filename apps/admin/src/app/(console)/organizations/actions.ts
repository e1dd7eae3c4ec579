"use server";

import { redirect } from "next/navigation";
import { runAction } from "../../../lib/actions";
import { type FormState, text } from "../../../lib/form-state";

export async function createOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const name = text(form, "name");
  if (!name) return { status: "error", fieldErrors: { name: "Enter the organization's name." } };
  let id: string | undefined;
  const state = await runAction(async (api) => {
    id = (await api.staff.organizations.create.mutate({ name })).id;
  });
  // A new organization needs its tenant configuration next: go there.
  if (state.status === "ok" && id) redirect(`/organizations/${id}`);
  return state;
}
