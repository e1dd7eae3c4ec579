"use server";

import { runAction } from "@/lib/actions";
import { text, type FormState } from "@/lib/form-state";
import { describeValue } from "@/lib/words";

const role = (form: FormData) => (text(form, "role") === "admin" ? "admin" : "viewer");

/** The invitation's token comes back as this action's secret: the form shows the link once. */
export async function inviteStaffAction(_state: FormState, form: FormData): Promise<FormState> {
  const email = text(form, "email");
  if (!email) return { status: "error", fieldErrors: { email: "Whom to invite: their work email." } };
  return runAction(
    async (api) => {
      const { invite, token } = await api.staff.members.invite.mutate({ email, role: role(form) });
      return {
        status: "ok",
        message: `Invitation for ${invite.email} (${describeValue("role", invite.role)}) created.`,
        secret: token,
        secretName: invite.email,
      };
    },
    undefined,
    { email: "email", role: "role" },
  );
}

export async function revokeInviteAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(async (api) => {
    await api.staff.members.revokeInvite.mutate({ id: text(form, "inviteId") });
  }, "Invitation withdrawn: its link no longer works.");
}

export async function setStaffRoleAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(async (api) => {
    const member = await api.staff.members.setRole.mutate({ id: text(form, "staffId"), role: role(form) });
    return { status: "ok", message: `${member.email} is now ${member.role === "admin" ? "an admin" : "a viewer"}.` };
  });
}

export async function setStaffStatusAction(_state: FormState, form: FormData): Promise<FormState> {
  const status = text(form, "status") === "active" ? "active" : "disabled";
  return runAction(async (api) => {
    const member = await api.staff.members.setStatus.mutate({ id: text(form, "staffId"), status });
    return {
      status: "ok",
      message:
        status === "disabled"
          ? `${member.email} is disabled and signed out everywhere.`
          : `${member.email} can sign in again.`,
    };
  });
}
