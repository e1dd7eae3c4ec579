"use server";

import { redirect } from "next/navigation";
import { runAction } from "@/lib/actions";
import { type FormState, text } from "@/lib/form-state";
import { duplicateNameWarning, sameOrganizationName } from "./organization-names";

export async function createOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const name = text(form, "name");
  if (!name) return { status: "error", fieldErrors: { name: "Enter the organization's name." } };
  const confirmed = text(form, "confirmDuplicate") === "1";
  let id: string | undefined;
  const state = await runAction(
    async (api) => {
      // Checked here too: the list the page showed may be out of date.
      if (!confirmed && (await api.staff.organizations.list.query()).some((org) => sameOrganizationName(org.name, name))) {
        return { status: "error", fieldErrors: { name: `${duplicateNameWarning(name)} Tick "Create another with this name" to create a second one.` } };
      }
      id = (await api.staff.organizations.create.mutate({ name })).id;
    },
    undefined,
    { name: "name" },
  );
  // A new organization needs its tenant configuration next: go there.
  if (state.status === "ok" && id) redirect(`/organizations/${id}`);
  return state;
}
