import { ActionForm } from "@/components/action-form";
import { ConfirmAction } from "@/components/confirm-action";
import { SubmitButton } from "@/components/fields";
import { Badge, Empty, PageHeader, ReadOnlyNote, Section, Table } from "@/components/ui";
import { currentStaff } from "@/lib/current-staff";
import { formatTime } from "@/lib/format";
import { load } from "@/lib/session";
import { describeValue } from "@/lib/words";

import { STAFF_ROLES } from "@mga/api/closed-values";

import { revokeInviteAction, setStaffRoleAction, setStaffStatusAction } from "./actions";
import { InviteForm } from "./invite-form";

/** Who can use the console: accounts, pending invitations, and (for admins) inviting and changing colleagues. */
export default async function StaffPage() {
  const [{ members, invites }, me] = await Promise.all([load((api) => api.staff.members.list.query()), currentStaff()]);
  const admin = me.role === "admin";
  const now = Date.now();
  return (
    <>
      <PageHeader title="Staff" />
      <Section title="Staff accounts">
        <Table headers={["Email", "Role", "Status", "Last sign-in", "Created", admin && "Change"]} className="staff">
          {members.map((member) => {
            const self = member.email === me.email;
            const locked = member.locked_until && Date.parse(member.locked_until) > now;
            return (
              <tr key={member.id} data-staff={member.email}>
                <td>
                  {member.email} {self ? <span className="badge badge-muted">you</span> : null}
                </td>
                <td>{describeValue("role", member.role)}</td>
                <td>
                  <Badge value={member.status} />{" "}
                  {locked ? <span className="hint">Locked until {formatTime(member.locked_until)}</span> : null}
                </td>
                <td>{formatTime(member.last_sign_in_at)}</td>
                <td>{formatTime(member.created_at)}</td>
                {admin ? (
                  <td>
                    {self ? (
                      <span className="hint">Another admin changes your account.</span>
                    ) : (
                      <div className="actions">
                        <ActionForm
                          action={setStaffRoleAction}
                          label={`Role of ${member.email}`}
                          className="form-inline"
                        >
                          <input type="hidden" name="staffId" value={member.id} />
                          <label className="visually-hidden" htmlFor={`role-${member.id}`}>
                            Role of {member.email}
                          </label>
                          <select id={`role-${member.id}`} name="role" defaultValue={member.role}>
                            {STAFF_ROLES.map((role) => (
                              <option key={role} value={role}>
                                {describeValue("role", role)}
                              </option>
                            ))}
                          </select>
                          <SubmitButton className="button button-secondary">Save role</SubmitButton>
                        </ActionForm>
                        <ConfirmAction
                          action={setStaffStatusAction}
                          {...(member.status === "active"
                            ? {
                                label: "Disable…",
                                question: `Disable ${member.email}? They are signed out everywhere at once and cannot sign in until enabled again.`,
                                confirmLabel: "Disable account",
                                hidden: { staffId: member.id, status: "disabled" },
                              }
                            : {
                                label: "Enable…",
                                question: `Enable ${member.email}? They can sign in again (with a fresh session).`,
                                confirmLabel: "Enable account",
                                hidden: { staffId: member.id, status: "active" },
                                tone: "normal" as const,
                              })}
                        />
                      </div>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </Table>
      </Section>
      <Section title="Pending invitations">
        {invites.length === 0 ? (
          <Empty>No pending invitations.</Empty>
        ) : (
          <Table headers={["Email", "Role", "Invited by", "Expires", admin && "Withdraw"]}>
            {invites.map((invite) => (
              <tr key={invite.id}>
                <td>{invite.email}</td>
                <td>{describeValue("role", invite.role)}</td>
                <td>{invite.invited_by}</td>
                <td>{formatTime(invite.expires_at)}</td>
                {admin ? (
                  <td>
                    <ConfirmAction
                      action={revokeInviteAction}
                      label="Withdraw…"
                      question={`Withdraw the invitation for ${invite.email}? Its link stops working.`}
                      confirmLabel="Withdraw invitation"
                      hidden={{ inviteId: invite.id }}
                    />
                  </td>
                ) : null}
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section title="Invite a colleague">{admin ? <InviteForm /> : <ReadOnlyNote />}</Section>
    </>
  );
}
