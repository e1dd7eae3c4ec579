"use server";

import { redirect } from "next/navigation";
import { runAction } from "../../../../lib/actions";
import { type FormState, list, optionalText, text } from "../../../../lib/form-state";

const JSON_FIELDS = ["tenantSources", "secondarySources"] as const;
const OPTIONAL_LISTS = ["tenantSourceKeys", "defaultTenantSourceKeys", "assignedSharedSourceTypes", "defaultSharedSourceTypes"] as const;

/**
 * Builds the configuration from the form (lists as comma-separated text, the two lists of
 * source entries as JSON from their row editors) and stores it. The API checks it and answers
 * with issues per field; those are shown beside their inputs (a row's own property on that
 * row) and nothing is stored.
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
    } catch (error) {
      fieldErrors[name] = `not valid JSON: ${(error as Error).message}`;
    }
  }
  if (Object.keys(fieldErrors).length) return { status: "error", fieldErrors };

  return runAction(async (api) => {
    const result = await api.staff.organizations.configureTenant.mutate({ id: orgId, config });
    if (result.saved) return { status: "ok", message: "Tenant configuration saved." };
    const errors: Record<string, string> = {};
    for (const issue of result.issues) {
      // "0.label: required" inside a list of sources belongs to that row's input.
      const inRow = (JSON_FIELDS as readonly string[]).includes(issue.field) ? /^(\d+)\.([A-Za-z]+): (.*)$/.exec(issue.message) : null;
      const [field, message] = inRow ? [`${issue.field}.${inRow[1]}.${inRow[2]}`, inRow[3] as string] : [issue.field, issue.message];
      errors[field] = errors[field] ? `${errors[field]}; ${message}` : message;
    }
    const general = errors[""];
    return { status: "error", message: general ?? "Nothing was saved: fix the fields marked above.", fieldErrors: errors };
  });
}

export async function renameOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const name = text(form, "name");
  if (!name) return { status: "error", fieldErrors: { name: "Enter the organization's name." } };
  return runAction(async (api) => {
    await api.staff.organizations.rename.mutate({ id: text(form, "orgId"), name });
  }, "Organization renamed.");
}

/** Only an empty organization can go; the API says in words what a non-empty one still holds. */
export async function deleteOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const state = await runAction(async (api) => {
    await api.staff.organizations.delete.mutate({ id: text(form, "orgId") });
  });
  if (state.status === "ok") redirect("/organizations");
  return state.message && !state.message.endsWith(".") ? { ...state, message: `${state.message}.` } : state;
}
