"use server";

import { runAction } from "@/lib/actions";
import { optionalText, text, type FormState } from "@/lib/form-state";
import { staffClient } from "@/lib/session";
import { describeExistingSiteAccount, type AccountCheckPurpose } from "@/lib/words";

const ref = (form: FormData) => ({
  integration_id: text(form, "integrationId"),
  external_user_id: text(form, "externalUserId"),
});

export async function setUserStatusAction(_state: FormState, form: FormData): Promise<FormState> {
  const status = text(form, "status") === "active" ? "active" : "disabled";
  return runAction(
    async (api) => {
      await api.staff.partnerUsers.setStatus.mutate({ ...ref(form), status });
    },
    status === "disabled" ? "User disabled: their grants and sessions are revoked." : "User reactivated.",
  );
}

export async function deleteUserAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(
    async (api) => {
      await api.staff.partnerUsers.requestDeletion.mutate({ ...ref(form), note: optionalText(form, "note") });
      return { status: "ok", message: "Deletion started: access is cut now and the rest completes in the background." };
    },
    undefined,
    { note: "note" },
  );
}

export async function reprovisionUserAction(_state: FormState, form: FormData): Promise<FormState> {
  const email = text(form, "email");
  if (!email) return { status: "error", fieldErrors: { email: "A reprovisioned user needs an email address." } };
  return runAction(
    async (api) => {
      await api.staff.partnerUsers.requestReprovision.mutate({ ...ref(form), email, name: optionalText(form, "name") });
      return { status: "ok", message: "Reprovision started: the user gets a new account generation." };
    },
    undefined,
    { email: "email", name: "name" },
  );
}

export async function overrideProfileAction(_state: FormState, form: FormData): Promise<FormState> {
  const email = optionalText(form, "email");
  const name = optionalText(form, "name");
  const reason = text(form, "reason");
  const fieldErrors: Record<string, string> = {};
  if (!email && !name) fieldErrors.email = "Give a new email, a new name, or both.";
  // An empty reason is said with the other problems at once; the API says how long one must be.
  if (!reason) fieldErrors.reason = "The audit log records why: give a reason.";
  if (Object.keys(fieldErrors).length) return { status: "error", fieldErrors };
  return runAction(
    async (api) => {
      const operation = await api.staff.partnerUsers.overrideProfile.mutate({ ...ref(form), email, name, reason });
      const done = operation.status === "completed";
      return {
        status: "ok",
        message: done
          ? "Profile override applied and recorded in the audit log."
          : "Profile override recorded in the audit log; it is being applied.",
      };
    },
    undefined,
    { email: "email", name: "name", reason: "reason" },
  );
}

/**
 * The confirmation's warning for an address typed into it (nothing when the address has no
 * site account, or cannot be checked: the action itself still validates it).
 */
export async function existingSiteAccountWarning(
  integrationId: string,
  email: string,
  purpose: AccountCheckPurpose,
): Promise<string | undefined> {
  const api = await staffClient();
  try {
    return describeExistingSiteAccount(
      await api.staff.partnerUsers.siteAccountForEmail.query({ integration_id: integrationId, email }),
      purpose,
    );
  } catch {
    return undefined;
  }
}
