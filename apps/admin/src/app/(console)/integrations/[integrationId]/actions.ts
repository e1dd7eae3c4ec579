"use server";

import { runAction } from "@/lib/actions";
import { optionalText, text, type FormState } from "@/lib/form-state";

/** A user added by an admin: the API's PUT user rules (a known user with the same email is matched, not changed). */
export async function addUserAction(_state: FormState, form: FormData): Promise<FormState> {
  const externalUserId = text(form, "externalUserId");
  const email = text(form, "email");
  const fieldErrors: Record<string, string> = {};
  if (!externalUserId) fieldErrors.externalUserId = "Enter the user's id in the partner's system.";
  if (!email) fieldErrors.email = "Enter the user's email address.";
  if (Object.keys(fieldErrors).length) return { status: "error", fieldErrors };
  return runAction(
    async (api) => {
      const { outcome } = await api.staff.partnerUsers.add.mutate({
        integration_id: text(form, "integrationId"),
        external_user_id: externalUserId,
        email,
        name: optionalText(form, "name"),
        team_external_id: optionalText(form, "team"),
      });
      const message = {
        created: `User ${externalUserId} added.`,
        pending: `User ${externalUserId} added; their setup finishes in the background.`,
        existing: `User ${externalUserId} already exists with this email: nothing was added (a team given is applied).`,
      }[outcome];
      return { status: "ok", message };
    },
    undefined,
    { external_user_id: "externalUserId", email: "email", name: "name", team_external_id: "team" },
  );
}
