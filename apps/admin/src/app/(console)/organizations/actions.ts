"use server";

import { runAction } from "@/lib/actions";
import { text, type FormState } from "@/lib/form-state";
import { redirect } from "next/navigation";

import { CREATE_TICK, duplicateNameRefusal, nameTakenElsewhere } from "./organization-names";

export async function createOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const name = text(form, "name");
  if (!name) return { status: "error", fieldErrors: { name: "Enter the organization's name." } };
  const confirmed = text(form, "confirmDuplicate") === "1";
  let id: string | undefined;
  const state = await runAction(
    async (api) => {
      if (!confirmed && (await nameTakenElsewhere(api, name)))
        return { status: "error", fieldErrors: { name: duplicateNameRefusal(name, CREATE_TICK) } };
      id = (await api.staff.organizations.create.mutate({ name })).id;
    },
    undefined,
    { name: "name" },
  );
  // A new organization needs its tenant configuration next: go there.
  if (state.status === "ok" && id) redirect(`/organizations/${id}`);
  return state;
}
