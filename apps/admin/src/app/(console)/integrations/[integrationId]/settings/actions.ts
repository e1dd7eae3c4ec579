"use server";

import { runAction } from "@/lib/actions";
import { text, type FormState } from "@/lib/form-state";

export async function setIntegrationStatusAction(_state: FormState, form: FormData): Promise<FormState> {
  const status = text(form, "status") === "active" ? "active" : "disabled";
  return runAction(
    async (api) => {
      await api.staff.integrations.setStatus.mutate({ id: text(form, "integrationId"), status });
    },
    status === "disabled" ? "Integration disabled: partner requests naming it are refused." : "Integration enabled.",
  );
}

export async function addAliasAction(_state: FormState, form: FormData): Promise<FormState> {
  const alias = text(form, "alias");
  if (!alias) return { status: "error", fieldErrors: { alias: "Enter the alias." } };
  const state = await runAction(
    async (api) => {
      await api.staff.integrations.addAlias.mutate({ id: text(form, "integrationId"), alias });
    },
    `Alias ${alias} added; grant it to the keys that may use it.`,
    { alias: "alias", slug: "alias" },
  );
  // A refusal names the alias it is about ("Use 3 to 64 lowercase letters…" alone does not say which).
  const refusal = state.fieldErrors?.alias;
  if (refusal && !refusal.includes(alias))
    return { ...state, fieldErrors: { ...state.fieldErrors, alias: `The alias ${alias} is not accepted: ${refusal}` } };
  return state;
}

export async function removeAliasAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(async (api) => {
    await api.staff.integrations.removeAlias.mutate({ id: text(form, "integrationId"), alias: text(form, "alias") });
  }, "Alias removed.");
}

export async function setAliasGrantAction(_state: FormState, form: FormData): Promise<FormState> {
  const granted = text(form, "granted") === "true";
  return runAction(
    async (api) => {
      await api.staff.integrations.setAliasGrant.mutate({
        id: text(form, "integrationId"),
        alias: text(form, "alias"),
        key_id: text(form, "keyId"),
        granted,
      });
    },
    granted ? "Alias granted to the key." : "Grant withdrawn.",
  );
}

export async function setChatAnswerLimitAction(_state: FormState, form: FormData): Promise<FormState> {
  const raw = text(form, "chatAnswersPerUser");
  const limit = raw ? Number(raw) : null;
  if (limit !== null && (!Number.isInteger(limit) || limit < 1)) {
    return {
      status: "error",
      fieldErrors: { chatAnswersPerUser: "A whole number of answers per minute, or empty for the default." },
    };
  }
  return runAction(
    async (api) => {
      await api.staff.integrations.setChatAnswerLimit.mutate({
        id: text(form, "integrationId"),
        chat_answers_per_user_per_minute: limit,
      });
    },
    limit === null
      ? "Chat limit saved: the service default applies."
      : `Chat limit saved: ${limit} answers per minute for each user.`,
    { chat_answers_per_user_per_minute: "chatAnswersPerUser" },
  );
}
