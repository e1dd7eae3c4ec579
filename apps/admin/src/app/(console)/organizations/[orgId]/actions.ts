"use server";

import { runAction } from "@/lib/actions";
import { describeProblems } from "@/lib/describe-error";
import { list, optionalText, text, type FormState } from "@/lib/form-state";
import { redirect } from "next/navigation";

import { duplicateNameRefusal, nameTakenElsewhere, RENAME_TICK } from "../organization-names";

const JSON_FIELDS = ["tenantSources", "secondarySources"] as const;
const OPTIONAL_LISTS = [
  "tenantSourceKeys",
  "defaultTenantSourceKeys",
  "assignedSharedSourceTypes",
  "defaultSharedSourceTypes",
] as const;

/**
 * Builds the configuration from the form (lists as comma-separated text, the two lists of
 * source entries as JSON from their row editors) and stores it. The API checks it and answers
 * with issues per field; those are shown beside their inputs in plain words (a row's own
 * property on that row) and nothing is stored.
 */
export async function configureTenantAction(_state: FormState, form: FormData): Promise<FormState> {
  const orgId = text(form, "orgId");
  const fieldErrors: Record<string, string> = {};
  const config: Record<string, unknown> = {
    clientName: text(form, "clientName"),
    enabledSources: list(form, "enabledSources"),
    baseSources: list(form, "baseSources"),
  };
  for (const [name, value] of [
    ["clientOrganization", optionalText(form, "clientOrganization")],
    ["clientSourceType", optionalText(form, "clientSourceType")],
    ["tenantSourceSidebarMode", optionalText(form, "tenantSourceSidebarMode")],
  ] as const) {
    if (value !== undefined) config[name] = value;
  }
  for (const name of OPTIONAL_LISTS) {
    if (text(form, name)) config[name] = list(form, name);
  }
  for (const name of JSON_FIELDS) {
    const raw = text(form, name);
    if (!raw) continue;
    try {
      config[name] = JSON.parse(raw);
    } catch {
      // The row editor writes this JSON; only a tampered page gets here.
      fieldErrors[name] = "These rows could not be read: reload the page and enter them again.";
    }
  }
  if (Object.keys(fieldErrors).length) return { status: "error", fieldErrors };

  return runAction(async (api) => {
    const result = await api.staff.organizations.configureTenant.mutate({ id: orgId, config });
    if (result.saved) return { status: "ok", message: "Tenant configuration saved." };
    const issues = result.issues.map((issue) => {
      // "0.label: required" inside a list of sources belongs to that row's input.
      const inRow = (JSON_FIELDS as readonly string[]).includes(issue.field)
        ? /^(\d+)\.([A-Za-z]+): (.*)$/.exec(issue.message)
        : null;
      return inRow
        ? { path: `${issue.field}.${inRow[1]}.${inRow[2]}`, problem: inRow[3] as string }
        : { path: issue.field || undefined, problem: issue.message };
    });
    // Every field of this form is named as the API names it, rows included.
    const fields = Object.fromEntries(issues.flatMap(({ path }) => (path ? [[path, path]] : [])));
    const described = describeProblems(issues, fields, "invalid_request");
    return { ...described, message: described.message ?? "Nothing was saved: fix the fields marked above." };
  });
}

/** Renaming to a name another organization has takes the same tick as creating one (organization-name-field.tsx). */
export async function renameOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const name = text(form, "name");
  const id = text(form, "orgId");
  if (!name) return { status: "error", fieldErrors: { name: "Enter the organization's name." } };
  const confirmed = text(form, "confirmDuplicate") === "1";
  return runAction(
    async (api) => {
      if (!confirmed && (await nameTakenElsewhere(api, name, id)))
        return { status: "error", fieldErrors: { name: duplicateNameRefusal(name, RENAME_TICK) } };
      await api.staff.organizations.rename.mutate({ id, name });
    },
    "Organization renamed.",
    { name: "name" },
  );
}

/**
 * Offered only when nothing blocks it (the page says what does otherwise); the API checks again
 * and says in words what blocks it now. The list then says which organization went.
 */
export async function deleteOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const state = await runAction(async (api) => {
    await api.staff.organizations.delete.mutate({ id: text(form, "orgId") });
  });
  if (state.status === "ok") redirect(`/organizations?deleted=${encodeURIComponent(text(form, "orgName"))}`);
  return state;
}
