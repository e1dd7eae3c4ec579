import { ConfirmAction } from "@/components/confirm-action";
import { CopyableId } from "@/components/copyable-id";
import { Field } from "@/components/fields";
import { Badge, Empty, PageHeader, ReadOnlyNote, Section, Table, Term, Time } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { formatTime, segment } from "@/lib/format";
import { pagePosition } from "@/lib/paging";
import { load } from "@/lib/session";
import { availableUserActions, type UserAction } from "@/lib/user-actions";
import { describeBlockingReasons } from "@/lib/words";

import { deleteUserAction, overrideProfileAction, reprovisionUserAction, setUserStatusAction } from "./actions";
import { EmailFieldWithAccountCheck } from "./email-field-with-account-check";
import { RefreshWhileRunning } from "./refresh-while-running";
import { UserConversations } from "./user-conversations";

/** One partner user: statuses, launch eligibility, team, generation, operations, the lifecycle actions, and their conversations. */
export default async function UserPage({
  params,
  searchParams,
}: {
  params: Promise<{ integrationId: string; externalUserId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { integrationId, externalUserId: encoded } = await params;
  const position = pagePosition(await searchParams);
  const externalUserId = segment(encoded);
  const [{ user, contact, operations }, admin] = await Promise.all([
    load((api) =>
      api.staff.partnerUsers.get.query({ integration_id: integrationId, external_user_id: externalUserId }),
    ),
    isAdmin(),
  ]);
  const hidden = { integrationId, externalUserId };
  const eligibility = user.launch_eligibility;
  const { actions, note } = availableUserActions(user);
  const offers = (action: UserAction) => actions.includes(action);
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
          <dd data-testid="launch-eligibility" title={eligibility.blocking_reasons.join(", ") || undefined}>
            {eligibility.can_launch ? "Can launch" : describeBlockingReasons(eligibility.blocking_reasons)}
          </dd>
          <dt>Setup</dt>
          <dd>
            <Badge kind="provisioning" value={user.provisioning_status} />
          </dd>
          <dt>Profile</dt>
          <dd>
            <Badge kind="sync" value={user.profile_sync_status} />
          </dd>
          <dt>Site account</dt>
          <dd>
            <Badge kind="sync" value={user.wordpress_sync_status} />{" "}
            <span title={`wordpress_linked: ${user.wordpress_linked}`}>
              {user.wordpress_linked ? "Linked" : "Not linked"}
            </span>
          </dd>
          <dt>Identity</dt>
          <dd>
            {user.identity_origin ? <Term kind="identityOrigin" value={user.identity_origin} /> : "Not known yet"}
            {" · "}
            <Term kind="mapping" value={user.mapping_status} />
            {" · "}
            <Term kind="experience" value={user.experience_type} />
          </dd>
          <dt>Team</dt>
          <dd>
            {user.team
              ? `${user.team.name} (${user.team.external_team_id}${user.team.status === "archived" ? ", archived" : ""})`
              : "None"}
          </dd>
          <dt>Generation</dt>
          <dd>
            Account generation {user.account_generation}, access version {user.access_version}, profile version{" "}
            {user.profile_version}
          </dd>
          <dt>Contact</dt>
          <dd>
            {contact.email}
            {contact.name ? ` · ${contact.name}` : ""}{" "}
            <span className="hint">(staff only; partners never read these back)</span>
          </dd>
          <dt>Created</dt>
          <dd>{formatTime(user.created_at)}</dd>
        </dl>
      </Section>
      <Section title="Actions">
        {!admin ? (
          <ReadOnlyNote />
        ) : (
          <div className="stack">
            {note ? <p className="notice-box">{note}</p> : null}
            {actions.length ? (
              <div className="actions">
                {offers("reprovision") ? (
                  <ConfirmAction
                    action={reprovisionUserAction}
                    label="Reprovision…"
                    question={`Reprovision ${user.external_user_id} as a new account generation? Earlier conversations stay unreadable.`}
                    confirmLabel="Reprovision"
                    hidden={hidden}
                    tone="normal"
                  >
                    <EmailFieldWithAccountCheck integrationId={integrationId} label="Email" required purpose="link" />
                    <Field label="Name (optional)" name="name" />
                  </ConfirmAction>
                ) : null}
                {/* One control for both directions, so focus can return to it relabelled after the change. */}
                {offers("disable") || offers("reactivate") ? (
                  <ConfirmAction
                    action={setUserStatusAction}
                    {...(offers("disable")
                      ? {
                          label: "Disable…",
                          question: `Disable ${user.external_user_id}? Their grants and sessions are revoked at once.`,
                          confirmLabel: "Disable user",
                          hidden: { ...hidden, status: "disabled" },
                        }
                      : {
                          label: "Reactivate…",
                          question: `Reactivate ${user.external_user_id}? They can sign in again.`,
                          confirmLabel: "Reactivate user",
                          hidden: { ...hidden, status: "active" },
                          tone: "normal" as const,
                        })}
                  />
                ) : null}
                {offers("delete") ? (
                  <ConfirmAction
                    action={deleteUserAction}
                    label="Delete…"
                    question={`Delete ${user.external_user_id}? Access is cut now; the deletion completes in the background and cannot be undone.`}
                    confirmLabel="Delete user"
                    hidden={hidden}
                  >
                    <Field label="Note (optional)" name="note" maxLength={500} />
                  </ConfirmAction>
                ) : null}
                {offers("overrideProfile") ? (
                  <ConfirmAction
                    action={overrideProfileAction}
                    label="Override profile…"
                    question={`Change the profile of ${user.external_user_id} without email verification? The change and your reason go to the audit log.`}
                    confirmLabel="Apply override"
                    hidden={hidden}
                    tone="normal"
                  >
                    <EmailFieldWithAccountCheck integrationId={integrationId} label="New email" purpose="change" />
                    <Field label="New name" name="name" />
                    <Field label="Reason" name="reason" required maxLength={500} />
                  </ConfirmAction>
                ) : null}
              </div>
            ) : null}
          </div>
        )}
      </Section>
      <Section title="Lifecycle operations">
        <RefreshWhileRunning
          running={operations.some((operation) => operation.status === "queued" || operation.status === "processing")}
        />
        {operations.length === 0 ? (
          <Empty>No lifecycle operations.</Empty>
        ) : (
          <Table headers={["Operation", "Type", "Status", "Error", "Created", "Completed"]}>
            {operations.map((operation) => (
              <tr key={operation.operation_id} id={operation.operation_id}>
                <td>
                  <CopyableId value={operation.operation_id} />
                </td>
                <td>
                  <Term kind="operationType" value={operation.type} />
                </td>
                <td>
                  <Badge kind="operationStatus" value={operation.status} />
                </td>
                <td>{operation.error_code ? <Term kind="errorCode" value={operation.error_code} /> : "—"}</td>
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
      <UserConversations integrationId={integrationId} externalUserId={externalUserId} position={position} />
    </>
  );
}
