"use client";

import { ActionForm } from "@/components/action-form";
import { Field, SubmitButton } from "@/components/fields";
import { describeValue } from "@/lib/words";

import { STAFF_ROLES } from "@mga/api/closed-values";

import { inviteStaffAction } from "./actions";
import { InvitationLinks } from "./invitation-links";
import { ROLE_DESCRIPTIONS } from "./roles";

/** The link is built here, from the console's own address, with the token in its fragment. */
const inviteLink = (token: string) => `${window.location.origin}/invite#token=${token}`;

export function InviteForm() {
  return (
    <ActionForm action={inviteStaffAction} label="Invite a colleague" resetOnSuccess>
      <InvitationLinks toLink={inviteLink} />
      <div className="form-inline">
        <Field
          label="Email"
          name="email"
          type="email"
          required
          maxLength={254}
          hint="Your colleague's work email address."
        />
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" name="role" defaultValue="viewer">
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {describeValue("role", role)}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton>Create invitation link</SubmitButton>
      </div>
      <ul className="hint">
        {Object.entries(ROLE_DESCRIPTIONS).map(([name, description]) => (
          <li key={name}>
            <strong>{describeValue("role", name)}</strong>: {description}
          </li>
        ))}
      </ul>
    </ActionForm>
  );
}
