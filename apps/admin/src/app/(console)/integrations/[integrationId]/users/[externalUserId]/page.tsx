import { ActionForm } from "../../../../../../components/action-form";
import { ConfirmAction } from "../../../../../../components/confirm-action";
import { Field, SubmitButton } from "../../../../../../components/fields";
import { CopyableId } from "../../../../../../components/copyable-id";
import { Badge, Empty, PageHeader, ReadOnlyNote, Section, Table, Time } from "../../../../../../components/ui";
import { isAdmin } from "../../../../../../lib/current-staff";
import { formatTime, segment } from "../../../../../../lib/format";
import { load } from "../../../../../../lib/session";
import { deleteUserAction, overrideProfileAction, reprovisionUserAction, setUserStatusAction } from "./actions";

/** One partner user: statuses, launch eligibility, team, generation, operations, and the lifecycle actions. */
export default async function UserPage({ params }: { params: Promise<{ integrationId: string; externalUserId: string }> }) {
  const { integrationId, externalUserId: encoded } = await params;
  const externalUserId = segment(encoded);
  const [{ user, contact, operations }, admin] = await Promise.all([
    load((api) => api.staff.partnerUsers.get.query({ integration_id: integrationId, external_user_id: externalUserId })),
    isAdmin(),
  ]);
  const hidden = { integrationId, externalUserId };
  const eligibility = user.launch_eligibility;
  return (
    <>
      <PageHeader title={`User ${user.external_user_id}`} />
      <Section title="Status">
        <dl className="facts">
          <dt>Status</dt>
          <dd>
            <Badge value={user.status} />
          </dd>
          <dt>Launch</dt>
          <dd data-testid="launch-eligibility">
            {eligibility.can_launch ? "Can launch" : `Blocked: ${eligibility.blocking_reasons.join(", ").replaceAll("_", " ")}`}
          </dd>
          <dt>Provisioning</dt>
          <dd>
            <Badge value={user.provisioning_status} />
          </dd>
          <dt>Profile sync</dt>
          <dd>
            <Badge value={user.profile_sync_status} />
          </dd>
          <dt>Site account sync</dt>
          <dd>
            <Badge value={user.wordpress_sync_status} /> {user.wordpress_linked ? "linked" : "not linked"}
          </dd>
          <dt>Identity</dt>
          <dd>
            {user.identity_origin ?? "—"}, mapping {user.mapping_status}, {user.experience_type}
          </dd>
          <dt>Team</dt>
          <dd>{user.team ? `${user.team.name} (${user.team.external_team_id}, ${user.team.status})` : "none"}</dd>
          <dt>Generation</dt>
          <dd>
            account generation {user.account_generation}, access version {user.access_version}, profile version {user.profile_version}
          </dd>
          <dt>Contact</dt>
          <dd>
            {contact.email}
            {contact.name ? ` · ${contact.name}` : ""} <span className="hint">(staff only; partners never read these back)</span>
          </dd>
          <dt>Created</dt>
          <dd>{formatTime(user.created_at)}</dd>
        </dl>
      </Section>
      <Section title="Actions">
        {!admin ? (
          <ReadOnlyNote />
        ) : user.status === "deleted" ? (
          <ConfirmAction
            action={reprovisionUserAction}
            label="Reprovision…"
            question={`Reprovision ${user.external_user_id} as a new account generation? Earlier conversations stay unreadable.`}
            confirmLabel="Reprovision"
            hidden={hidden}
            tone="normal"
          >
            <Field label="Email" name="email" type="email" required />
            <Field label="Name (optional)" name="name" />
          </ConfirmAction>
        ) : (
          <div className="stack">
            <div className="actions">
              {user.status === "active" ? (
                <ConfirmAction
                  action={setUserStatusAction}
                  label="Disable…"
                  question={`Disable ${user.external_user_id}? Their grants and sessions are revoked at once.`}
                  confirmLabel="Disable user"
                  hidden={{ ...hidden, status: "disabled" }}
                />
              ) : (
                <ConfirmAction
                  action={setUserStatusAction}
                  label="Reactivate…"
                  question={`Reactivate ${user.external_user_id}? They can sign in again.`}
                  confirmLabel="Reactivate user"
                  hidden={{ ...hidden, status: "active" }}
                  tone="normal"
                />
              )}
              <ConfirmAction
                action={deleteUserAction}
                label="Delete…"
                question={`Delete ${user.external_user_id}? Access is cut now; the deletion completes in the background and cannot be undone.`}
                confirmLabel="Delete user"
                hidden={hidden}
              >
                <Field label="Note (optional)" name="note" maxLength={500} />
              </ConfirmAction>
            </div>
            <h3>Profile override (audited)</h3>
            <p className="hint">Applies an email change without verification, or a name change. The reason goes to the audit log.</p>
            <ActionForm action={overrideProfileAction} label="Profile override" className="form form-inline">
              <input type="hidden" name="integrationId" value={integrationId} />
              <input type="hidden" name="externalUserId" value={externalUserId} />
              <Field label="New email" name="email" type="email" />
              <Field label="New name" name="name" />
              <Field label="Reason" name="reason" required maxLength={500} />
              <SubmitButton>Apply override</SubmitButton>
            </ActionForm>
          </div>
        )}
      </Section>
      <Section title="Lifecycle operations">
        {operations.length === 0 ? (
          <Empty>No lifecycle operations.</Empty>
        ) : (
          <Table headers={["Operation", "Type", "Status", "Error", "Created", "Completed"]}>
            {operations.map((operation) => (
              <tr key={operation.operation_id}>
                <td>
                  <CopyableId value={operation.operation_id} />
                </td>
                <td>{operation.type.replaceAll("_", " ")}</td>
                <td>
                  <Badge value={operation.status} />
                </td>
                <td>{operation.error_code ?? "—"}</td>
                <td>
                  <Time iso={operation.created_at} />
                </td>
                <td>
                  <Time iso={operation.completed_at} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
